package org.rocprofsys.cuda.counters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocprofsys.config.Install;
import org.rocprofsys.config.avail.AvailCatalog;
import org.rocprofsys.config.avail.AvailableComponent;
import org.rocprofsys.config.avail.HardwareCounter;

/**
 * The NVIDIA GPU rows of rocprof-sys-avail -H: every base metric of CUPTI's profiler host API for
 * each CUDA device (device {@code GPU <index> (<chip>)}, category {@code CUDA}), each available
 * (CUPTI lists only what the chip has). Nothing where the distribution has no CUDA backend, CUPTI
 * is missing or no CUDA device is present.
 */
public final class CudaMetricCatalog implements AvailCatalog {
    static final String CATEGORY = "CUDA";

    @Override
    public List<AvailableComponent> components() {
        return List.of();
    }

    @Override
    public List<HardwareCounter> hardwareCounters() {
        Path library = library();
        if (!Files.isRegularFile(library)) {
            return List.of();
        }
        return rows(MetricCatalog.read(library, Optional.empty()));
    }

    static List<HardwareCounter> rows(MetricCatalog catalog) {
        List<HardwareCounter> out = new ArrayList<>();
        for (CudaMetric m : catalog.metrics()) {
            String unit = m.unit().isEmpty() ? m.type() : m.type() + ", " + m.unit();
            out.add(new HardwareCounter(
                    m.name(),
                    "GPU " + m.device() + " (" + m.chip() + ")",
                    true,
                    m.description() + " [" + unit + "]",
                    CATEGORY));
        }
        return out;
    }

    /**
     * The distribution's {@code lib/librocprof-sys-cuda.so}: beside this class's jar, else under
     * the install prefix ({@link Install#lib}).
     */
    public static Path library() {
        try {
            Path jar = Path.of(CudaMetricCatalog.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            Path beside = jar.resolveSibling("librocprof-sys-cuda.so");
            if (Files.isRegularFile(beside)) {
                return beside;
            }
        } catch (Exception e) {
            // no code source (an unusual class loader): the prefix below
        }
        return Install.lib().resolve("librocprof-sys-cuda.so");
    }
}
