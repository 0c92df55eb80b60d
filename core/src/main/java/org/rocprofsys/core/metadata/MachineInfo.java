package org.rocprofsys.core.metadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.rocprofsys.config.proc.CpuInfo;
import org.rocprofsys.config.proc.ProcFs;

/** CPU facts for metadata.json, from /proc/cpuinfo and the sysfs cache directory. */
record MachineInfo(String cpuModel, String cpuVendor, double cpuMhz, String cpuFeatures, int physicalCores) {
    static MachineInfo read() {
        String model = "";
        String vendor = "";
        double mhz = 0;
        String flags = "";
        Set<String> cores = new HashSet<>();
        String physicalId = "0";
        // without a /proc/cpuinfo (not Linux-like) the fields stay empty
        for (CpuInfo.Processor p :
                ProcFs.system().cpuInfo().map(CpuInfo::processors).orElse(List.of())) {
            model = p.get("model name").orElse(model);
            vendor = p.get("vendor_id").orElse(vendor);
            mhz = p.get("cpu MHz").map(MachineInfo::parse).orElse(mhz);
            flags = p.get("flags").orElse(flags);
            physicalId = p.get("physical id").orElse(physicalId);
            String socket = physicalId;
            p.get("core id").ifPresent(core -> cores.add(socket + ":" + core));
        }
        return new MachineInfo(model, vendor, mhz, flags, Math.max(cores.size(), 1));
    }

    private static double parse(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Size in bytes of the first data or unified cache of a level, 0 when unknown. */
    long cacheBytes(int level) {
        Path dir = Path.of("/sys/devices/system/cpu/cpu0/cache");
        try (var entries = Files.list(dir)) {
            for (Path index : entries.toList()) {
                if (read(index.resolve("level")).equals(Integer.toString(level))
                        && List.of("Data", "Unified").contains(read(index.resolve("type")))) {
                    String size = read(index.resolve("size"));
                    long unit = size.endsWith("K") ? 1024 : size.endsWith("M") ? 1024 * 1024 : 1;
                    return Long.parseLong(size.replaceAll("[^0-9]", "")) * unit;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    private static String read(Path p) throws IOException {
        return Files.readString(p).strip();
    }
}
