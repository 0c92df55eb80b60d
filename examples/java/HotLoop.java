/**
 * A CPU-bound Java program for call-stack sampling tests: HotLoop.churn runs for most of the
 * time. Run with -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit (and
 * -XX:+PreserveFramePointer) so that the sampler names the JIT-compiled frames through
 * /tmp/perf-<pid>.map.
 *
 *   java HotLoop.java [millis]      (default 1500)
 */
public class HotLoop {
    static double churn(long n) {
        double x = 0;
        for (long i = 0; i < n; i++) {
            x += (double) (i ^ 0x5555) / (double) (i + 1);
        }
        return x;
    }

    public static void main(String[] args) {
        long millis = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        long end = System.nanoTime() + millis * 1_000_000L;
        double sink = 0;
        while (System.nanoTime() < end) {
            sink += churn(1_000_000);
        }
        System.out.println("HotLoop done " + (sink > 0));
    }
}
