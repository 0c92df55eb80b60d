package org.rocprofsys.processsampling.gpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds a fake sysfs tree as the kernel lays it out: {@code sys/class/drm/cardN} links to the DRM
 * node under the PCI device, whose {@code device} link leads back to the PCI device directory with
 * the amdgpu attribute files and {@code hwmon/hwmonK}. Every attribute holds one integer (or
 * string) and a newline, as the kernel writes them.
 */
final class FakeSysfs {
    private final Path root;

    FakeSysfs(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** Attribute files as {@code name=value} lines (the value may hold spaces), in order. */
    static Map<String, String> files(String lines) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : lines.strip().split("\n")) {
            int eq = line.indexOf('=');
            m.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        return m;
    }

    /**
     * @param pci        the PCI address, e.g. "0000:03:00.0"
     * @param deviceAttr files of the PCI device directory (vendor, gpu_busy_percent, ...)
     * @param hwmon      files of its hwmon directory (temp1_input, power1_average, ...); null for none
     * @return the PCI device directory
     */
    Path card(int card, String pci, int hwmonNumber, Map<String, String> deviceAttr, Map<String, String> hwmon)
            throws IOException {
        Path dev = root.resolve("sys/devices/pci0000:00/" + pci);
        Path drmNode = dev.resolve("drm/card" + card);
        Files.createDirectories(drmNode);
        for (var e : deviceAttr.entrySet()) {
            write(dev.resolve(e.getKey()), e.getValue());
        }
        if (hwmon != null) {
            Path hw = dev.resolve("hwmon/hwmon" + hwmonNumber);
            Files.createDirectories(hw);
            for (var e : hwmon.entrySet()) {
                write(hw.resolve(e.getKey()), e.getValue());
            }
        }
        Files.createSymbolicLink(drmNode.resolve("device"), Path.of("../../../" + pci));
        Path classDrm = root.resolve("sys/class/drm");
        Files.createDirectories(classDrm);
        Files.createSymbolicLink(
                classDrm.resolve("card" + card), Path.of("../../devices/pci0000:00/" + pci + "/drm/card" + card));
        // a connector node beside it, as a display GPU has
        Path connector = drmNode.resolve("card" + card + "-DP-1");
        Files.createDirectories(connector);
        Files.createSymbolicLink(
                classDrm.resolve("card" + card + "-DP-1"),
                Path.of("../../devices/pci0000:00/" + pci + "/drm/card" + card + "/card" + card + "-DP-1"));
        return dev;
    }

    /** The kernel's format: the value and one newline. */
    static void write(Path file, String value) throws IOException {
        Files.writeString(file, value + "\n");
    }
}
