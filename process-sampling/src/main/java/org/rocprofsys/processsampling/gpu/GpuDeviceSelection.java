package org.rocprofsys.processsampling.gpu;

import java.util.Collections;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * ROCPROFSYS_SAMPLING_GPUS: which GPUs the process sampler reads, for NVIDIA and AMD alike.
 * {@code all} (the default), empty or {@code on}: every GPU; {@code none} or {@code off}: none;
 * otherwise device numbers and inclusive ranges separated by commas, semicolons or white space
 * ({@code 0,2-3}). As upstream, numbers of GPUs the machine lacks are ignored (the caller notes them).
 *
 * <p>Upstream's own range loop stops before the upper bound ({@code 0-2} gives 0 and 1) although
 * its error text calls {@code 0-7} a range of eight; the clone takes ranges as inclusive, as
 * SAMPLING_CPUS and the documentation do.
 *
 * @param all     whether every GPU is selected
 * @param indices the selected GPU numbers when not {@code all} (empty for none)
 */
public record GpuDeviceSelection(boolean all, SortedSet<Integer> indices) {
    public static final GpuDeviceSelection ALL = new GpuDeviceSelection(true, new TreeSet<>());
    public static final GpuDeviceSelection NONE = new GpuDeviceSelection(false, new TreeSet<>());

    public GpuDeviceSelection {
        indices = Collections.unmodifiableSortedSet(new TreeSet<>(indices));
    }

    /** Whether the GPU numbered {@code index} (as the user sees it) is selected. */
    public boolean includes(int index) {
        return all || indices.contains(index);
    }

    /** Whether no GPU at all is selected. */
    public boolean none() {
        return !all && indices.isEmpty();
    }

    /**
     * @throws IllegalArgumentException for anything but numbers, ranges, all and none
     */
    public static GpuDeviceSelection parse(String spec) {
        String s = spec == null ? "" : spec.strip().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.equals("all") || s.equals("on")) {
            return ALL;
        }
        if (s.equals("none") || s.equals("off")) {
            return NONE;
        }
        TreeSet<Integer> out = new TreeSet<>();
        for (String part : s.split("[,;\\s]+")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.equals("all")) {
                return ALL;
            }
            if (part.equals("none")) {
                return NONE;
            }
            if (!part.matches("\\d+(-\\d+)?")) {
                throw new IllegalArgumentException("Invalid GPU specification: '" + part
                        + "' in ROCPROFSYS_SAMPLING_GPUS. Only numbers (e.g. 0), ranges (e.g. 0-7), 'all'"
                        + " and 'none' are permitted.");
            }
            int dash = part.indexOf('-');
            try {
                int lo = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1));
                if (hi < lo) {
                    throw new IllegalArgumentException("Invalid GPU range specification: '" + part
                            + "' in ROCPROFSYS_SAMPLING_GPUS: the range N-M needs N <= M, e.g. 0-3");
                }
                if (hi - lo > 65_536) {
                    throw new IllegalArgumentException("Invalid GPU range specification: '" + part
                            + "' in ROCPROFSYS_SAMPLING_GPUS: too many GPUs");
                }
                for (int i = lo; i <= hi; i++) {
                    out.add(i);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "Invalid GPU specification: '" + part + "' in ROCPROFSYS_SAMPLING_GPUS: number out of range");
            }
        }
        return out.isEmpty() ? NONE : new GpuDeviceSelection(false, out);
    }

    @Override
    public String toString() {
        return all ? "all" : indices.isEmpty() ? "none" : indices.toString();
    }
}
