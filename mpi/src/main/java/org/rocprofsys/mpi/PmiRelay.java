package org.rocprofsys.mpi;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;
import org.rocprofsys.ffm.LibC;

/**
 * MPICH's Hydra hands each process its PMI connection as an inherited descriptor (PMI_FD). The
 * collector has it, but the target cannot: the JVM starts the target with only descriptors 0-2.
 * So the collector carries the connection: it listens on the loopback interface and the wrapper
 * library, in the target before main, turns PMI_FD into PMI's other form, PMI_PORT (with PMI_ID);
 * the target connects, and after the port form's handshake (answered here from PMI_RANK and
 * PMI_SIZE, as Hydra would) every byte is relayed both ways unchanged. When the target's side
 * closes, the collector closes its descriptor, which Hydra then sees as it would the target's own.
 */
final class PmiRelay implements TargetEnvironmentContribution, EventSource {
    /** Read by the wrapper library (rsys_mpi.c). */
    static final String PORT_VARIABLE = "ROCPROFSYS_MPI_PMI_PORT";

    private final int pmiFd;
    private final int rank;
    private final int size;
    private final PrintStream log;
    private ServerSocket server;
    private volatile Socket connection;

    private PmiRelay(int pmiFd, int rank, int size, PrintStream log) {
        this.pmiFd = pmiFd;
        this.rank = rank;
        this.size = size;
        this.log = log;
    }

    /** A relay where the target's environment holds Hydra's descriptor form of PMI. */
    static Optional<PmiRelay> of(Map<String, String> env, PrintStream log) {
        try {
            int fd = Integer.parseInt(env.getOrDefault("PMI_FD", "").strip());
            int rank = Integer.parseInt(env.getOrDefault("PMI_RANK", "").strip());
            int size = Integer.parseInt(env.getOrDefault("PMI_SIZE", "").strip());
            return fd > 2 && rank >= 0 && size > 0 ? Optional.of(new PmiRelay(fd, rank, size, log)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        try {
            server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for the MPI program's PMI connection", e);
        }
        Thread t = new Thread(this::serve, "rocprof-sys-pmi-relay");
        t.setDaemon(true);
        t.start();
        return Map.of(PORT_VARIABLE, server.getInetAddress().getHostAddress() + ":" + server.getLocalPort());
    }

    private void serve() {
        try (Socket s = server.accept()) {
            connection = s;
            s.setTcpNoDelay(true); // PMI is small requests and answers
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            String hello = line(in);
            if (!hello.startsWith("cmd=initack")) {
                log.println("[rocprof-sys][mpi] unexpected PMI handshake from the program: " + hello);
                return;
            }
            out.write(("cmd=initack\ncmd=set size=" + size + "\ncmd=set rank=" + rank + "\ncmd=set debug=0\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread back = new Thread(() -> fromHydra(out), "rocprof-sys-pmi-relay-back");
            back.setDaemon(true);
            back.start();
            toHydra(in);
        } catch (IOException e) {
            // the listener closed at the end of the session, or the program went away
        } finally {
            LibC.close(pmiFd);
        }
    }

    private void toHydra(InputStream in) throws IOException {
        byte[] buf = new byte[4096];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(buf.length);
            for (int n; (n = in.read(buf)) > 0; ) {
                MemorySegment.copy(buf, 0, seg, ValueLayout.JAVA_BYTE, 0, n);
                for (long done = 0; done < n; ) {
                    LibC.Result r = LibC.write(pmiFd, seg.asSlice(done, n - done));
                    if (r.value() < 0 && r.errno() != LibC.EINTR) {
                        return;
                    }
                    done += Math.max(0, r.value());
                }
            }
        }
    }

    private void fromHydra(OutputStream out) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(4096);
            while (true) {
                LibC.Result r = LibC.read(pmiFd, seg);
                if (r.value() < 0 && r.errno() == LibC.EINTR) {
                    continue;
                }
                if (r.value() <= 0) {
                    return;
                }
                out.write(seg.asSlice(0, r.value()).toArray(ValueLayout.JAVA_BYTE));
                out.flush();
            }
        } catch (IOException e) {
            // the program's side closed
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
            sb.append((char) c);
        }
        return sb.toString();
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {}

    @Override
    public void stop(long timestampNs) {
        try {
            if (server != null) {
                server.close();
            }
            Socket s = connection;
            if (s != null) {
                s.close();
            }
        } catch (IOException e) {
            // closing what is already closed
        }
    }
}
