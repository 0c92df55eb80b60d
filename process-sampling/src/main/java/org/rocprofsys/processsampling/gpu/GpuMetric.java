package org.rocprofsys.processsampling.gpu;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterTrack;

/**
 * The GPU metrics of the process sampler, with upstream's Perfetto track names, units and
 * categories (inventory §4.3; rocprof-sys {@code library/amd_smi.cpp}).
 *
 * <p>Scalar metrics are named {@code GPU <label> [<dev>] (S)}; the per-engine ones (VCN, JPEG)
 * {@code GPU [<dev>] <label> [NN] (S)} with the engine number zero-padded to two digits.
 */
public enum GpuMetric {
    BUSY_GFX("busy", "GFX Busy", "%", Category.AMD_SMI_BUSY_GFX, false),
    BUSY_UMC("busy", "UMC Busy", "%", Category.AMD_SMI_BUSY_UMC, false),
    BUSY_MM("busy", "MM Busy", "%", Category.AMD_SMI_BUSY_MM, false),
    TEMPERATURE("temp", "Temperature", "deg C", Category.AMD_SMI_TEMP, false),
    POWER("power", "Current Power", "watts", Category.AMD_SMI_POWER, false),
    MEMORY_USAGE("mem_usage", "Memory Usage", "megabytes", Category.AMD_SMI_MEMORY_USAGE, false),
    VCN_ACTIVITY("vcn_activity", "VCN Activity", "%", Category.AMD_SMI_VCN_ACTIVITY, true),
    JPEG_ACTIVITY("jpeg_activity", "JPEG Activity", "%", Category.AMD_SMI_JPEG_ACTIVITY, true);

    /** ROCPROFSYS_AMD_SMI_METRICS's default. */
    public static final String DEFAULT_SPEC = "busy, temp, power, mem_usage";

    private final String key;
    private final String label;
    private final String unit;
    private final Category category;
    private final boolean perEngine;

    GpuMetric(String key, String label, String unit, Category category, boolean perEngine) {
        this.key = key;
        this.label = label;
        this.unit = unit;
        this.category = category;
        this.perEngine = perEngine;
    }

    /** The ROCPROFSYS_AMD_SMI_METRICS word that selects this metric ({@code busy} selects three). */
    public String key() {
        return key;
    }

    /** The words of a notice, e.g. "GFX Busy", "Current Power". */
    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }

    public Category category() {
        return category;
    }

    /** Whether the metric has one series per engine (VCN, JPEG). */
    public boolean perEngine() {
        return perEngine;
    }

    /** {@code GPU GFX Busy [0] (S)}; for a per-engine metric, engine 0's name. */
    public String trackName(int device) {
        return perEngine ? trackName(device, 0) : "GPU " + label + " [" + device + "] (S)";
    }

    /** {@code GPU [0] VCN Activity [03] (S)}; for a scalar metric the engine is ignored. */
    public String trackName(int device, int engine) {
        if (!perEngine) {
            return trackName(device);
        }
        return "GPU [" + device + "] " + label + " [" + (engine < 10 ? "0" : "") + engine + "] (S)";
    }

    /** The machine-wide counter track of this metric on a device (and engine). */
    public CounterTrack track(int device, int engine) {
        return new CounterTrack(trackName(device, engine), unit, category, 0);
    }

    /**
     * Parses ROCPROFSYS_AMD_SMI_METRICS as upstream: empty or {@code all} selects every metric,
     * {@code none} none; otherwise words among {@code busy, temp, power, mem_usage, vcn_activity,
     * jpeg_activity} separated by commas, semicolons, colons or white space. An unknown word is an
     * error, as upstream's "unsupported amd-smi metric".
     *
     * @throws IllegalArgumentException for an unknown metric
     */
    public static Set<GpuMetric> parse(String spec) {
        String s = spec == null ? "" : spec.strip();
        if (s.isEmpty() || s.equals("all")) {
            return EnumSet.allOf(GpuMetric.class);
        }
        EnumSet<GpuMetric> out = EnumSet.noneOf(GpuMetric.class);
        if (s.equals("none")) {
            return out;
        }
        for (String word : s.split("[,;:\\s]+")) {
            if (word.isEmpty()) {
                continue;
            }
            boolean known = false;
            for (GpuMetric m : values()) {
                if (m.key.equals(word)) {
                    out.add(m);
                    known = true;
                }
            }
            if (!known) {
                throw new IllegalArgumentException("unsupported amd-smi metric: " + word
                        + " (ROCPROFSYS_AMD_SMI_METRICS takes busy, temp, power, mem_usage, vcn_activity,"
                        + " jpeg_activity, all or none)");
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
