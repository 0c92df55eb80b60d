package org.rocprofsys.config;

import java.util.Map;

/**
 * Defaults that the static table cannot hold: those that depend on the machine or the environment,
 * and those coupled to other settings (upstream's interdependent defaults, inventory §2.1).
 */
final class Defaults {
    private Defaults() {}

    /** Machine- and environment-dependent defaults, applied before any source. */
    static void applyDynamic(Map<String, SettingValue> values, Map<String, String> env) {
        int hw = Runtime.getRuntime().availableProcessors();
        replaceDefault(values, "ROCPROFSYS_THREAD_POOL_SIZE", Integer.toString(Math.max(Math.min(4, hw / 2), 1)));
        String tmp = env.get("TMPDIR");
        if (tmp != null && !tmp.isBlank()) {
            replaceDefault(values, "ROCPROFSYS_TMPDIR", tmp);
        }
        String threads = env.get("ROCPROFSYS_NUM_THREADS");
        if (threads != null && threads.strip().matches("[0-9]+")) {
            replaceDefault(values, "ROCPROFSYS_NUM_THREADS_HINT", threads.strip());
        }
        String systemBackend = env.get("ROCPROFSYS_PERFETTO_BACKEND_SYSTEM");
        if (systemBackend != null && parsesTrue(systemBackend)) {
            replaceDefault(values, "ROCPROFSYS_PERFETTO_BACKEND", "system");
        }
    }

    /**
     * Coupled defaults, applied after every source. Upstream computes TRACE's default as "PROFILE is
     * not requested" and PROFILE's as "not TRACE", so asking only for a profile turns the trace off.
     * We apply the same rule whichever source (CLI, environment, config file) asked.
     */
    static void applyCoupled(Map<String, SettingValue> values) {
        SettingValue trace = values.get("ROCPROFSYS_TRACE");
        SettingValue profile = values.get("ROCPROFSYS_PROFILE");
        if (trace != null && profile != null) {
            if (!trace.isSet()) {
                boolean profileRequested = profile.isSet() && parsesTrue(profile.value());
                trace = replaceDefault(values, "ROCPROFSYS_TRACE", Boolean.toString(!profileRequested));
            }
            if (!profile.isSet()) {
                replaceDefault(values, "ROCPROFSYS_PROFILE", Boolean.toString(!parsesTrue(trace.value())));
            }
        }
        // overflow sampling asked for (--sample-overflow EVENT FREQ) is sampling asked for, -S or not
        // (issue 36); the modes that turn sampling off still do, below
        SettingValue overflow = values.get("ROCPROFSYS_SAMPLING_OVERFLOW");
        if (overflow != null && overflow.isSet() && parsesTrue(overflow.value())) {
            replaceDefault(values, "ROCPROFSYS_USE_SAMPLING", "true");
        }
        SettingValue mode = values.get("ROCPROFSYS_MODE");
        if (mode != null) {
            switch (mode.value()) {
                case "sampling" -> {
                    replaceDefault(values, "ROCPROFSYS_USE_SAMPLING", "true");
                    replaceDefault(values, "ROCPROFSYS_USE_PROCESS_SAMPLING", "true");
                }
                case "causal" -> {
                    force(values, "ROCPROFSYS_USE_CAUSAL", "true");
                    for (String off : new String[] {
                        "ROCPROFSYS_TRACE",
                        "ROCPROFSYS_PROFILE",
                        "ROCPROFSYS_USE_SAMPLING",
                        "ROCPROFSYS_USE_PROCESS_SAMPLING"
                    }) {
                        force(values, off, "false");
                    }
                }
                case "coverage" -> {
                    replaceDefault(values, "ROCPROFSYS_USE_CODE_COVERAGE", "true");
                    for (String off : new String[] {
                        "ROCPROFSYS_TRACE",
                        "ROCPROFSYS_PROFILE",
                        "ROCPROFSYS_USE_CAUSAL",
                        "ROCPROFSYS_USE_AMD_SMI",
                        "ROCPROFSYS_USE_KOKKOSP",
                        "ROCPROFSYS_USE_RCCLP",
                        "ROCPROFSYS_USE_OMPT",
                        "ROCPROFSYS_USE_SAMPLING",
                        "ROCPROFSYS_USE_PROCESS_SAMPLING"
                    }) {
                        force(values, off, "false");
                    }
                }
                default -> {}
            }
        }
        SettingValue sampling = values.get("ROCPROFSYS_USE_SAMPLING");
        if (sampling != null && parsesTrue(sampling.value())) {
            boolean anyTimer = false;
            for (String timer : new String[] {
                "ROCPROFSYS_SAMPLING_CPUTIME", "ROCPROFSYS_SAMPLING_REALTIME", "ROCPROFSYS_SAMPLING_OVERFLOW"
            }) {
                SettingValue v = values.get(timer);
                anyTimer |= v != null && parsesTrue(v.value());
            }
            if (!anyTimer) {
                replaceDefault(values, "ROCPROFSYS_SAMPLING_CPUTIME", "true");
            }
        }
    }

    private static SettingValue replaceDefault(Map<String, SettingValue> values, String name, String value) {
        SettingValue v = values.get(name);
        if (v == null || v.isSet()) {
            return v;
        }
        SettingValue replaced = new SettingValue(v.definition(), value, ValueSource.DEFAULT, "default");
        values.put(name, replaced);
        return replaced;
    }

    private static void force(Map<String, SettingValue> values, String name, String value) {
        SettingValue v = values.get(name);
        if (v != null) {
            values.put(
                    name,
                    new SettingValue(v.definition(), value, v.source(), v.origin() + " (forced by ROCPROFSYS_MODE)"));
        }
    }

    private static boolean parsesTrue(String v) {
        try {
            return SettingType.parseBool(v);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
