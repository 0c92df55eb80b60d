package org.rocprofsys.rocprofv3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.rocprofv3.cli.Rocprofv3Invocation;
import org.rocprofsys.rocprofv3.cli.Rocprofv3Options;
import org.rocprofsys.rocprofv3.cli.Rocprofv3UsageException;
import org.rocprofsys.rocprofv3.filter.KernelFilter;
import org.rocprofsys.rocprofv3.stats.SummaryTable;

/** rocprofv3's options onto settings, its errors, the kernel filter and names, the stats numbers. */
class Rocprofv3OptionsTest {
    private static Rocprofv3Invocation parse(String... args) throws Rocprofv3UsageException {
        return Rocprofv3Options.parse(List.of(args), "host", Map.of());
    }

    @Test
    void kernelTraceWithStatsInCsv() throws Exception {
        Rocprofv3Invocation inv =
                parse("--kernel-trace", "--stats", "-d", "out", "--output-format", "csv", "--", "app");
        assertEquals(List.of("app"), inv.command());
        assertEquals("kernel_trace", inv.settings().get("ROCPROFSYS_ROCPROFV3_TRACES"));
        assertEquals("kernel_dispatch", inv.settings().get("ROCPROFSYS_ROCM_DOMAINS"));
        assertEquals("kernel_dispatch", inv.settings().get("ROCPROFSYS_CUDA_DOMAINS"));
        assertEquals("true", inv.settings().get("ROCPROFSYS_ROCPROFV3_STATS"));
        assertEquals("csv", inv.settings().get("ROCPROFSYS_ROCPROFV3_FORMATS"));
        assertEquals("out", inv.settings().get("ROCPROFSYS_OUTPUT_PATH"));
        assertEquals("false", inv.settings().get("ROCPROFSYS_USE_ROCPD"));
    }

    @Test
    void sysTraceAndSeveralFormatsAtOnce() throws Exception {
        Rocprofv3Invocation inv =
                parse("--sys-trace", "--output-format", "csv", "JSON", "pftrace,rocpd", "--", "app", "-x");
        assertEquals(List.of("app", "-x"), inv.command());
        assertEquals(
                "hip_api,hsa_api,marker_api,kernel_trace,memory_copy,memory_allocation,scratch_memory",
                inv.settings().get("ROCPROFSYS_ROCPROFV3_TRACES"));
        assertEquals("csv,json", inv.settings().get("ROCPROFSYS_ROCPROFV3_FORMATS"));
        assertEquals("true", inv.settings().get("ROCPROFSYS_TRACE"));
        assertEquals("%pid%_results.pftrace", inv.settings().get("ROCPROFSYS_PERFETTO_FILE"));
        assertEquals("true", inv.settings().get("ROCPROFSYS_USE_ROCPD"));
        assertTrue(inv.settings().get("ROCPROFSYS_ROCM_DOMAINS").contains("hsa_core_api"));
        assertEquals("host/%pid%", inv.settings().get("ROCPROFSYS_OUTPUT_PATH"));
    }

    @Test
    void defaultFormatIsRocpd() throws Exception {
        Rocprofv3Invocation inv = parse("--hip-trace", "--", "app");
        assertEquals("true", inv.settings().get("ROCPROFSYS_USE_ROCPD"));
        assertEquals("", inv.settings().get("ROCPROFSYS_ROCPROFV3_FORMATS"));
        assertEquals("cuda_runtime_api,cuda_driver_api", inv.settings().get("ROCPROFSYS_CUDA_DOMAINS"));
    }

    @Test
    void unsupportedOptionsSayItOnce() throws Exception {
        Rocprofv3Invocation inv = parse("--kernel-trace", "--pmc", "SQ_WAVES", "--output-format", "otf2", "--", "a");
        assertEquals(2, inv.notices().size(), inv.notices().toString());
        assertTrue(inv.notices().get(0).contains("--pmc is not supported yet"));
    }

    @Test
    void errorsAreArgparses() {
        assertEquals(
                "unrecognized arguments: --kernel-trase",
                assertThrows(Rocprofv3UsageException.class, () -> parse("--kernel-trase", "--", "a"))
                        .getMessage());
        assertEquals(
                "argument --summary-units: invalid choice: 'days' (choose from 'sec', 'msec', 'usec', 'nsec')",
                assertThrows(
                                Rocprofv3UsageException.class,
                                () -> parse("--kernel-trace", "--summary-units", "days", "--", "a"))
                        .getMessage());
        assertTrue(assertThrows(
                        Rocprofv3UsageException.class,
                        () -> parse("--kernel-trace", "--output-format", "xml", "--", "a"))
                .getMessage()
                .startsWith("argument --output-format: invalid choice: 'xml'"));
        assertTrue(assertThrows(
                        Rocprofv3UsageException.class,
                        () -> parse("--kernel-trace", "--kernel-include-regex", "(", "--", "a"))
                .getMessage()
                .startsWith("argument --kernel-include-regex: invalid regular expression"));
        assertThrows(Rocprofv3UsageException.class, () -> parse("--kernel-trace"));
        assertThrows(Rocprofv3UsageException.class, () -> parse("--", "a"));
    }

    @Test
    void kernelFilterCountsIterationsPerName() throws Exception {
        KernelFilter f = KernelFilter.of(new org.rocprofsys.config.SettingsLoader(
                                org.rocprofsys.config.SettingsRegistry.standard(),
                                Map.of(
                                        "ROCPROFSYS_ROCPROFV3_KERNEL_INCLUDE_REGEX", "^transpose",
                                        "ROCPROFSYS_ROCPROFV3_KERNEL_ITERATION_RANGE", "[2-3]"),
                                java.nio.file.Path.of("."))
                        .load())
                .orElseThrow();
        assertEquals(
                List.of(false, true, true, false),
                List.of(f.keep("transpose_a"), f.keep("transpose_a"), f.keep("transpose_a"), f.keep("transpose_a")));
        assertEquals(false, f.keep("copy_kernel"));
    }

    @Test
    void truncatedNames() {
        assertEquals(
                "addition_kernel",
                new org.rocprofsys.rocprofv3.trace.KernelNames(true, false)
                        .of("void addition_kernel<float>(float*, float const*, int)", null));
        assertEquals("_Z1kv", new org.rocprofsys.rocprofv3.trace.KernelNames(false, true).of("k()", "_Z1kv"));
    }

    @Test
    void summaryTitleAndHeader() {
        String t = SummaryTable.text("ROCPROFV3 SUMMARY:", List.of(), "usec");
        assertTrue(t.startsWith("ROCPROFV3 SUMMARY:\n| NAME "), t);
        assertTrue(t.contains("| DURATION (usec) |"), t);
    }
}
