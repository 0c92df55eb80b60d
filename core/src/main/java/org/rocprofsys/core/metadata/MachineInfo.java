package org.rocprofsys.core.metadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** CPU facts for metadata.json, from /proc/cpuinfo and the sysfs cache directory. */
record MachineInfo(String cpuModel, String cpuVendor, double cpuMhz, String cpuFeatures, int physicalCores) {
    static MachineInfo read() {
        String model = "";
        String vendor = "";
        double mhz = 0;
        String flags = "";
        Set<String> cores = new HashSet<>();
        String physicalId = "0";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String key = line.substring(0, colon).strip();
                String value = line.substring(colon + 1).strip();
                switch (key) {
                    case "model name" -> model = value;
                    case "vendor_id" -> vendor = value;
                    case "cpu MHz" -> mhz = parse(value);
                    case "flags" -> flags = value;
                    case "physical id" -> physicalId = value;
                    case "core id" -> cores.add(physicalId + ":" + value);
                    default -> {}
                }
            }
        } catch (IOException e) {
            // not Linux-like: leave the fields empty
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
