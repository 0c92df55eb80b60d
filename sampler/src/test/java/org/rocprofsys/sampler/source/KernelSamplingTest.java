package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.proc.ProcFs;

class KernelSamplingTest {
    @TempDir
    Path root;

    private Optional<String> refusal(String capEff, String paranoid) throws Exception {
        Files.createDirectories(root.resolve("self"));
        Files.createDirectories(root.resolve("sys/kernel"));
        Files.writeString(
                root.resolve("self/status"), "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t" + capEff + "\n");
        Files.writeString(root.resolve("sys/kernel/perf_event_paranoid"), paranoid + "\n");
        return KernelSampling.refusal(new ProcFs(root));
    }

    @Test
    void capabilitiesOrALowParanoiaAllowKernelSamples() throws Exception {
        assertTrue(refusal("000001ffffffffff", "2").isEmpty()); // root
        assertTrue(refusal("0000004000000000", "2").isEmpty()); // CAP_PERFMON
        assertTrue(refusal("0000000000200000", "3").isEmpty()); // CAP_SYS_ADMIN
        assertTrue(refusal("0000000000000000", "1").isEmpty());
        assertTrue(refusal("0000000000000000", "-1").isEmpty());
    }

    @Test
    void otherwiseTheRefusalSaysWhy() throws Exception {
        String why = refusal("0000000000000000", "2").orElseThrow();
        assertTrue(why.contains("perf_event_paranoid is 2") && why.contains("CAP_PERFMON"), why);
        assertTrue(refusal("00000000a80425fb", "4").isPresent()); // a container's default set
    }
}
