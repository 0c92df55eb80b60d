package org.rocprofsys.processsampling;

import java.util.List;
import java.util.TreeSet;
import org.rocprofsys.config.NumberRange;

/**
 * ROCPROFSYS_SAMPLING_CPUS: {@code none} (the default: no frequency series), empty or {@code all}
 * (every CPU), or integers and ranges such as {@code 0-3,6}.
 */
final class CpuSelection {
    private CpuSelection() {}

    static List<Integer> parse(String spec, int cpuCount) {
        String s = spec.strip();
        if (s.equalsIgnoreCase("none")) {
            return List.of();
        }
        TreeSet<Integer> cpus = new TreeSet<>();
        if (s.isEmpty() || s.equalsIgnoreCase("all")) {
            for (int i = 0; i < cpuCount; i++) {
                cpus.add(i);
            }
            return List.copyOf(cpus);
        }
        for (String part : s.split("[ ,;]+")) {
            try {
                NumberRange range = NumberRange.parse(part, Integer.MAX_VALUE);
                for (int i = (int) range.lo(); i <= range.hi() && i < cpuCount; i++) {
                    cpus.add(i);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ROCPROFSYS_SAMPLING_CPUS: '" + part
                        + "' is not a CPU number or range (e.g. 0-3,6; 'none'; 'all')");
            }
        }
        return List.copyOf(cpus);
    }
}
