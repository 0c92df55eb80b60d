package org.rocprofsys.instrument.report;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.rocprofsys.instrument.plan.Exclusion;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.select.SelectionOptions;

/**
 * For a module none of whose functions is instrumented: why (the most frequent reason of its
 * excluded list) and the option that changes it, in one line, so the user need not read
 * excluded.txt to learn what to type.
 *
 * @param summary what happened: "none of the N functions of M is instrumented: K are excluded as 'R'"
 * @param advice  the option to use, or what no option changes
 */
public record ExclusionHint(String summary, String advice) {
    /** The hint for {@code plan}, when it instruments nothing (and is not a sampling-mode plan, which never does). */
    public static Optional<ExclusionHint> of(InstrumentPlan plan, SelectionOptions options) {
        if (!plan.instrumented().isEmpty() || plan.excluded().isEmpty() || plan.mode() == 1) {
            return Optional.empty();
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Exclusion x : plan.excluded()) {
            counts.merge(x.reason(), 1, Integer::sum);
        }
        Map.Entry<String, Integer> top =
                counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        String file = plan.module().getFileName().toString();
        String summary = "none of the " + plan.excluded().size() + " functions of " + file + " is instrumented: "
                + (top.getValue() == plan.excluded().size() ? "all" : top.getValue() + "") + " are excluded as '"
                + top.getKey() + "'";
        return Optional.of(new ExclusionHint(summary, advice(top.getKey(), file, options)));
    }

    /** {@code summary; advice} as one line. */
    public String line() {
        return summary + "; " + advice;
    }

    private static String advice(String reason, String file, SelectionOptions o) {
        return switch (reason) {
            case "internal library" ->
                "it is one of the internal libraries: --internal-library-remove " + stem(file)
                        + " makes its functions candidates";
            case "min-instructions", "min-address-range", "min-instructions-loop", "min-address-range-loop" ->
                "they are smaller than -i/--min-instructions " + o.minInstructions() + " and -r/--min-address-range "
                        + o.minAddressRange() + " ask (e.g. -i 0 -r 0 takes every size)";
            case "module-exclude-regex" -> "-ME/--module-exclude excludes the module";
            case "function-exclude-regex" -> "-E/--function-exclude excludes them";
            case "module-restrict-regex", "function-restrict-regex" ->
                "-MR/--module-restrict or -R/--function-restrict leaves them out";
            case "linkage-constraint" ->
                "--linkage " + String.join(" ", o.linkage().stream().sorted().toList())
                        + " leaves out their symbol linkage";
            case "visibility-constraint" ->
                "--visibility "
                        + String.join(" ", o.visibility().stream().sorted().toList())
                        + " leaves out their symbol visibility";
            case "overlapping" -> "--allow-overlapping includes them";
            case "rocprofsys", "timemory", "perfetto" ->
                "they are the profiler's own functions (--internal-function-include lifts this)";
            default -> "no option changes this (see the Reason column of excluded.txt)";
        };
    }

    /** {@code liblzma.so.5.4.5} -> {@code liblzma}: the name --internal-library-remove takes. */
    public static String stem(String file) {
        int so = file.indexOf(".so");
        return so > 0 ? file.substring(0, so) : file;
    }
}
