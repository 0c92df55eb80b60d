package org.rocprofsys.cuda.counters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;

/**
 * The metrics CUPTI's profiler host API knows for this machine's GPUs, as the injection library's
 * {@code rocprofsys_cuda_metric_catalog} lists them (it loads libcupti and libcuda itself; the JVM
 * links neither). CUPTI's host API needs no GPU for a chip it is given by name, so a catalog for a
 * named chip can be read anywhere CUPTI is installed.
 *
 * @param metrics base metrics of every device listed
 * @param errors  what could not be listed, one sentence each (no CUPTI, no device, ...)
 */
public record MetricCatalog(List<CudaMetric> metrics, List<String> errors) {
    public MetricCatalog {
        metrics = List.copyOf(metrics);
        errors = List.copyOf(errors);
    }

    /**
     * The catalog of every CUDA device ({@code chip} empty), or of the named chip (as device -1).
     *
     * @param library the distribution's {@code librocprof-sys-cuda.so}
     */
    public static MetricCatalog read(Path library, Optional<String> chip) {
        if (!isElf(library)) {
            // loading a file that is no shared library makes the JVM warn about its stack guard
            return new MetricCatalog(List.of(), List.of(library + " is not a shared library"));
        }
        try (Arena arena = Arena.ofConfined()) {
            LibraryLoad load = OptionalLibrary.load("the CUDA backend", List.of(library.toString()), arena);
            if (!(load instanceof LibraryLoad.Loaded loaded)) {
                return new MetricCatalog(List.of(), List.of(((LibraryLoad.Missing) load).reason()));
            }
            MethodHandle catalog = loaded.downcall(
                    "rocprofsys_cuda_metric_catalog",
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            Path out = Files.createTempFile("rocprofsys-cuda-metrics", ".tsv");
            try {
                MemorySegment chipArg = chip.isPresent() ? arena.allocateFrom(chip.get()) : MemorySegment.NULL;
                int rc = (int) catalog.invokeExact(chipArg, arena.allocateFrom(out.toString()));
                MetricCatalog parsed = parse(Files.readAllLines(out, StandardCharsets.UTF_8));
                return rc < 0 && parsed.errors().isEmpty()
                        ? new MetricCatalog(parsed.metrics(), List.of("the metric catalog failed"))
                        : parsed;
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Throwable t) {
            return new MetricCatalog(List.of(), List.of("the metric catalog failed: " + t));
        }
    }

    private static boolean isElf(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
        } catch (IOException e) {
            return false;
        }
    }

    /** Parses the library's lines: {@code metric TAB device TAB chip TAB name TAB type TAB unit TAB description}, {@code error TAB device TAB chip TAB reason}. */
    public static MetricCatalog parse(List<String> lines) {
        List<CudaMetric> metrics = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("metric") && f.length >= 7) {
                metrics.add(new CudaMetric(Integer.parseInt(f[1]), f[2], f[3], f[4], f[5], f[6]));
            } else if (f[0].equals("error") && f.length >= 4) {
                String where =
                        f[1].equals("-1") ? "" : "device " + f[1] + (f[2].isEmpty() ? "" : " (" + f[2] + ")") + ": ";
                errors.add(where + f[3]);
            }
        }
        return new MetricCatalog(metrics, errors);
    }

    /** Whether {@code metric} names a base metric of {@code chip}, alone or with a sub-metric appended. */
    public boolean knows(String chip, String metric) {
        for (CudaMetric m : metrics) {
            if (m.chip().equals(chip)
                    && (metric.equals(m.name())
                            || (metric.startsWith(m.name())
                                    && metric.charAt(m.name().length()) == '.'))) {
                return true;
            }
        }
        return false;
    }

    /** The chips listed, in device order. */
    public List<String> chips() {
        return metrics.stream().map(CudaMetric::chip).distinct().toList();
    }
}
