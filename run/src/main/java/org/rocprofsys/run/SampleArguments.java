package org.rocprofsys.run;

import java.util.List;
import java.util.Map;

/**
 * What {@code rocprof-sys-sample} sets before its options are parsed (inventory §1.3); the options
 * themselves are rocprof-sys-sample's own table ({@code RunArguments.parseSample}).
 */
final class SampleArguments {
    private SampleArguments() {}

    /**
     * The environment the run starts from: sampling on (upstream sets it unless the mode is
     * causal), and with {@code --realtime} alone the CPU-time timer off.
     */
    static Map<String, String> environment(List<String> args, Map<String, String> inherited) {
        Map<String, String> env = new java.util.HashMap<>(inherited);
        if (!"causal".equalsIgnoreCase(inherited.get("ROCPROFSYS_MODE"))) {
            env.put("ROCPROFSYS_USE_SAMPLING", "true");
        }
        int dash = args.indexOf("--");
        List<String> options = dash < 0 ? args : args.subList(0, dash);
        boolean cputime = options.stream().anyMatch(a -> a.equals("--cputime") || a.startsWith("--cputime="));
        boolean realtime = options.stream().anyMatch(a -> a.equals("--realtime") || a.startsWith("--realtime="));
        if (realtime && !cputime) {
            env.put("ROCPROFSYS_SAMPLING_CPUTIME", "false");
        }
        return env;
    }
}
