package org.rocprofsys.rocm.source;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.rocprofsys.core.spi.SettingWords;

/**
 * {@code ROCPROFSYS_ROCM_DOMAINS} as upstream reads it (core/rocprofiler-sdk.cpp): the lower-cased
 * rocprofiler-sdk callback and buffer tracing kind names plus the meta-domains {@code hip_api}
 * (hip_runtime_api + hip_compiler_api), {@code hsa_api} (the four HSA tables) and
 * {@code marker_api} / {@code roctx} (marker_core_api); any other value is an error in upstream's
 * words, {@code unsupported ROCPROFSYS_ROCM_DOMAINS value: X}. {@code ROCPROFSYS_USE_RCCLP} adds
 * {@code rccl_api}. Of the valid names, those upstream traces (and this backend records) are
 * {@link #TRACED}; the others are accepted and reported as not traced.
 */
public final class RocmDomains {
    public static final String SETTING = "ROCPROFSYS_ROCM_DOMAINS";

    /** The kind names {@code hsa_api} stands for. */
    private static final List<String> HSA_API =
            List.of("hsa_core_api", "hsa_amd_ext_api", "hsa_image_ext_api", "hsa_finalize_ext_api");

    /** The kind names {@code hip_api} stands for. */
    private static final List<String> HIP_API = List.of("hip_runtime_api", "hip_compiler_api");

    /** Every value upstream accepts (SDK 1.0.0's kind names, hidden ones included, and the meta-domains). */
    public static final List<String> CHOICES = concat(
            List.of("none"),
            HSA_API,
            HIP_API,
            List.of(
                    "marker_core_api",
                    "marker_control_api",
                    "marker_name_api",
                    "code_object",
                    "scratch_memory",
                    "kernel_dispatch",
                    "memory_copy",
                    "rccl_api",
                    "ompt",
                    "memory_allocation",
                    "runtime_initialization",
                    "rocdecode_api",
                    "rocjpeg_api",
                    "hip_stream",
                    "marker_core_range_api",
                    "correlation_id_retirement",
                    "hip_runtime_api_ext",
                    "hip_compiler_api_ext",
                    "rocdecode_api_ext",
                    "kfd_event_page_migrate",
                    "kfd_event_page_fault",
                    "kfd_event_queue",
                    "kfd_event_unmap_from_gpu",
                    "kfd_event_dropped_events",
                    "kfd_page_migrate",
                    "kfd_page_fault",
                    "kfd_queue",
                    "hip_api",
                    "hsa_api",
                    "marker_api",
                    "roctx"));

    /** The domains upstream's backend traces and so does this one, in the tool's order. */
    public static final List<String> TRACED = concat(
            HSA_API,
            HIP_API,
            List.of(
                    "marker_core_api",
                    "rccl_api",
                    "rocdecode_api",
                    "rocjpeg_api",
                    "kernel_dispatch",
                    "memory_copy",
                    "scratch_memory",
                    "kfd_page_migrate",
                    "kfd_page_fault"));

    /** Upstream hides these from the choices it shows (they are accepted all the same). */
    static final Set<String> HIDDEN = Set.of(
            "none",
            "correlation_id_retirement",
            "marker_core_api",
            "marker_control_api",
            "marker_name_api",
            "code_object");

    private RocmDomains() {}

    /** The result of reading the setting: what the tool traces, and the valid values it leaves out. */
    public record Selection(Set<String> traced, Set<String> notTraced) {}

    /**
     * The domains a comma (or space, semicolon) separated list selects, meta-domains expanded.
     *
     * @throws IllegalArgumentException naming the first value upstream would refuse
     */
    public static Selection parse(String value, boolean useRcclp) {
        Set<String> traced = new LinkedHashSet<>();
        Set<String> notTraced = new LinkedHashSet<>();
        for (String token : SettingWords.of(value, "[ ,;]+")) {
            String d = token.toLowerCase(Locale.ROOT);
            if (!CHOICES.contains(d)) {
                throw new IllegalArgumentException("unsupported " + SETTING + " value: " + token);
            }
            for (String e : expand(d)) {
                if (TRACED.contains(e)) {
                    traced.add(e);
                } else if (!e.equals("none") && !e.equals("code_object")) {
                    notTraced.add(e);
                }
            }
        }
        if (useRcclp) {
            traced.add("rccl_api");
        }
        Set<String> ordered = new LinkedHashSet<>();
        TRACED.stream().filter(traced::contains).forEach(ordered::add);
        return new Selection(ordered, notTraced);
    }

    private static List<String> expand(String d) {
        return switch (d) {
            case "hip_api" -> HIP_API;
            case "hsa_api" -> HSA_API;
            case "marker_api", "roctx" -> List.of("marker_core_api");
            default -> List.of(d);
        };
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        return Stream.of(parts).flatMap(List::stream).toList();
    }
}
