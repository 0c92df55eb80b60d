package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * What the call-stack sampling end-to-end tests share: skipping where perf is refused, the sampled
 * track, the sampling profiles written.
 */
final class CallStackSampling {
    private static final String OFF = "call-stack sampling is off";

    private CallStackSampling() {}

    /** {@code r}, or the test skipped when the run says that call-stack sampling is off here. */
    static ProcessResult orSkip(ProcessResult r) {
        if (r.stderr().contains(OFF)) {
            abort("perf_event_open is refused here: "
                    + r.stderr()
                            .lines()
                            .filter(l -> l.contains(OFF))
                            .findFirst()
                            .orElse(""));
        }
        return r;
    }

    /**
     * The slices ("depth:name") of the one sampled track of thread 0 ("Thread 0 (S) <tid>"),
     * in trace order, duplicates kept.
     */
    static Stream<String> mainThreadSamples(DecodedTrace trace) {
        List<Long> sampled = trace.tracks.values().stream()
                .filter(t -> t.descriptor().getName().startsWith("Thread 0 (S) "))
                .map(DecodedTrace.Track::uuid)
                .toList();
        assertEquals(1, sampled.size(), trace.tracks::toString);
        return trace.slices.stream()
                .filter(s -> s.trackUuid == sampled.getFirst())
                .map(s -> s.depth + ":" + s.name);
    }

    /**
     * The three sampling profiles (sampling_wall_clock, sampling_cpu_clock, sampling_percent) are
     * in {@code dir} with each of the {@code extensions}; {@code context} goes with a failure.
     */
    static void assertSamplingFiles(Path dir, Object context, String... extensions) {
        for (String f : List.of("sampling_wall_clock", "sampling_cpu_clock", "sampling_percent")) {
            for (String ext : extensions) {
                assertTrue(Files.isRegularFile(dir.resolve(f + "." + ext)), f + "." + ext + "\n" + context);
            }
        }
    }
}
