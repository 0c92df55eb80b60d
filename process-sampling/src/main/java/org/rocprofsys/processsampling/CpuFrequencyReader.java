package org.rocprofsys.processsampling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.rocprofsys.config.proc.CpuInfo;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;

/**
 * {@code CPU Frequency [n] (S)} in MHz for the selected CPUs: the kernel's cpufreq value
 * ({@code scaling_cur_freq}, kHz) where the CPU has one, else the "cpu MHz" line of /proc/cpuinfo
 * (virtual machines often have no cpufreq driver). Reading /proc/cpuinfo makes the kernel measure
 * every CPU's frequency (about 5 ms here), so that fallback is refreshed at most once per
 * {@link #CPUINFO_REFRESH_NS} and repeated in between.
 */
final class CpuFrequencyReader implements MetricReader {
    private final Path root;
    private final List<Integer> cpus;
    private final List<CounterTrack> tracks = new ArrayList<>();
    static final long CPUINFO_REFRESH_NS = 1_000_000_000L;
    private Map<Integer, Double> cpuinfo;
    /** CPUs without a cpufreq file: not looked for again. */
    private final java.util.Set<Integer> noCpufreq = new java.util.HashSet<>();

    private long cpuinfoReadAt;

    CpuFrequencyReader(Path root, List<Integer> cpus) {
        this.root = root;
        this.cpus = List.copyOf(cpus);
        for (int cpu : cpus) {
            tracks.add(new CounterTrack("CPU Frequency [" + cpu + "] (S)", "MHz", Category.CPU_FREQ, 0));
        }
    }

    @Override
    public void read(long timestampNs, Consumer<CounterSample> out) {
        for (int i = 0; i < cpus.size(); i++) {
            int cpu = cpus.get(i);
            Double mhz = noCpufreq.contains(cpu) ? null : cpufreq(cpu);
            if (mhz == null) {
                noCpufreq.add(cpu);
            }
            if (mhz == null) {
                if (cpuinfo == null || timestampNs - cpuinfoReadAt >= CPUINFO_REFRESH_NS) {
                    cpuinfo = cpuinfoMhz();
                    cpuinfoReadAt = timestampNs;
                }
                mhz = cpuinfo.get(cpu);
            }
            if (mhz != null) {
                out.accept(new CounterSample(timestampNs, tracks.get(i), mhz));
            }
        }
    }

    private Double cpufreq(int cpu) {
        Path p = root.resolve("sys/devices/system/cpu/cpu" + cpu + "/cpufreq/scaling_cur_freq");
        try {
            return Long.parseLong(Files.readString(p).strip()) / 1000.0;
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    private Map<Integer, Double> cpuinfoMhz() {
        Map<Integer, Double> mhz = new HashMap<>();
        for (CpuInfo.Processor p : new ProcFs(root.resolve("proc"))
                .cpuInfo()
                .map(CpuInfo::processors)
                .orElse(List.of())) {
            Optional<String> value = p.get("cpu MHz");
            if (p.number() >= 0 && value.isPresent()) {
                try {
                    mhz.put(p.number(), Double.parseDouble(value.get()));
                } catch (NumberFormatException e) {
                    // no frequency to report for this CPU
                }
            }
        }
        return mhz;
    }
}
