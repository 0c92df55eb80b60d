package org.rocprofsys.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code rocprof-sys-sample}'s command line (inventory §1.3) as the rocprof-sys-run command line
 * that means the same: the sample tool's options are a variant of run's, so only the ones that
 * differ are rewritten and run's parser does the rest. Rewritten: {@code --freq} (run's {@code
 * --sampling-freq}), {@code --cputime} / {@code --realtime} (run's {@code --sample-*}), and {@code
 * -w} / {@code -d}, which set the trace and sampling delay and duration outright instead of run's
 * weak combination with causal profiling.
 */
final class SampleArguments {
    private SampleArguments() {
    }

    /** The equivalent rocprof-sys-run arguments; the command after {@code --} is kept as is. */
    static List<String> toRunArguments(List<String> args) {
        List<String> out = new ArrayList<>();
        int dash = args.indexOf("--");
        List<String> options = dash < 0 ? args : args.subList(0, dash);
        for (int i = 0; i < options.size(); i++) {
            String a = options.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            String inline = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
            switch (name) {
                case "--freq" -> out.add(inline == null ? "--sampling-freq" : "--sampling-freq=" + inline);
                case "--cputime" -> out.add(inline == null ? "--sample-cputime" : "--sample-cputime=" + inline);
                case "--realtime" -> out.add(inline == null ? "--sample-realtime" : "--sample-realtime=" + inline);
                case "-w", "--wait", "-d", "--duration" -> {
                    String what = name.equals("-w") || name.equals("--wait") ? "wait" : "duration";
                    String value = inline;
                    if (value == null && i + 1 < options.size()) {
                        value = options.get(++i);
                    }
                    if (value == null) {
                        out.add(a); // run's parser reports the missing value
                    } else {
                        out.add("--trace-" + what + "=" + value);
                        out.add("--sampling-" + what + "=" + value);
                    }
                }
                default -> out.add(a);
            }
        }
        if (dash >= 0) {
            out.addAll(args.subList(dash, args.size()));
        }
        return out;
    }

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
