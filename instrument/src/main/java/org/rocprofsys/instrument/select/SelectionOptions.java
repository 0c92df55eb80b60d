package org.rocprofsys.instrument.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The symbol-selection options of {@code rocprof-sys-instrument} (inventory §1.4, §6.2), filled by
 * the CLI from picocli and the ROCPROFSYS_REGEX_* environment ({@link #withEnvironment}).
 *
 * <p>Regexes are matched like egrep's {@code regex_search}: anywhere in the text
 * ({@link java.util.regex.Matcher#find()}).
 *
 * @param functionInclude         {@code -I}: force functions whose name or signature matches
 * @param functionExclude         {@code -E}: skip functions whose name or signature matches
 * @param functionRestrict        {@code -R}: keep only functions that match
 * @param callerInclude           {@code --caller-include}: force functions that call a matching function
 * @param moduleInclude           {@code -MI}
 * @param moduleExclude           {@code -ME}
 * @param moduleRestrict          {@code -MR}
 * @param internalFunctionInclude {@code --internal-function-include}: lift the internal-function constraint
 * @param internalModuleInclude   {@code --internal-module-include}: lift the internal-library constraint
 * @param instructionExclude      {@code --instruction-exclude}: skip functions with a basic block whose
 *                                instruction text matches
 * @param linkage                 {@code --linkage}: any of unknown global local weak unique
 * @param visibility              {@code --visibility}: any of unknown default hidden internal protected
 * @param minInstructions         {@code -i}, already resolved by {@link #resolveMinimums}
 * @param minAddressRange         {@code -r}, resolved likewise
 * @param minInstructionsLoop     {@code --min-instructions-loop}, resolved likewise
 * @param minAddressRangeLoop     {@code --min-address-range-loop}, resolved likewise
 * @param allowOverlapping        {@code --allow-overlapping}
 * @param dynamicCallsites        {@code --dynamic-callsites}: force functions with indirect calls
 * @param mainFunction            {@code -m}: wrapped with init/fini, never instrumented as a function
 * @param coverage                {@code -M coverage}: the coverage rules (no linkage/visibility filter)
 * @param internalLibraries       {@code --internal-library-append/-remove}: changes to the internal libraries
 */
public record SelectionOptions(
        List<Pattern> functionInclude,
        List<Pattern> functionExclude,
        List<Pattern> functionRestrict,
        List<Pattern> callerInclude,
        List<Pattern> moduleInclude,
        List<Pattern> moduleExclude,
        List<Pattern> moduleRestrict,
        List<Pattern> internalFunctionInclude,
        List<Pattern> internalModuleInclude,
        List<Pattern> instructionExclude,
        Set<String> linkage,
        Set<String> visibility,
        long minInstructions,
        long minAddressRange,
        long minInstructionsLoop,
        long minAddressRangeLoop,
        boolean allowOverlapping,
        boolean dynamicCallsites,
        String mainFunction,
        boolean coverage,
        InternalLibraries internalLibraries) {

    /** Upstream's ROCPROFSYS_DEFAULT_MIN_INSTRUCTIONS default. */
    public static final long DEFAULT_MIN_INSTRUCTIONS = 1024;

    public static final Set<String> DEFAULT_LINKAGE = Set.of("global", "local", "unique");
    public static final Set<String> DEFAULT_VISIBILITY = Set.of("default", "hidden", "internal", "protected");
    public static final Set<String> LINKAGE_CHOICES = Set.of("unknown", "global", "local", "weak", "unique");
    public static final Set<String> VISIBILITY_CHOICES =
            Set.of("unknown", "default", "hidden", "internal", "protected");

    public SelectionOptions {
        functionInclude = List.copyOf(functionInclude);
        functionExclude = List.copyOf(functionExclude);
        functionRestrict = List.copyOf(functionRestrict);
        callerInclude = List.copyOf(callerInclude);
        moduleInclude = List.copyOf(moduleInclude);
        moduleExclude = List.copyOf(moduleExclude);
        moduleRestrict = List.copyOf(moduleRestrict);
        internalFunctionInclude = List.copyOf(internalFunctionInclude);
        internalModuleInclude = List.copyOf(internalModuleInclude);
        instructionExclude = List.copyOf(instructionExclude);
        linkage = Set.copyOf(linkage);
        visibility = Set.copyOf(visibility);
        for (String l : linkage) {
            if (!LINKAGE_CHOICES.contains(l))
                throw new IllegalArgumentException("unknown linkage '" + l + "' (choices: " + LINKAGE_CHOICES + ")");
        }
        for (String v : visibility) {
            if (!VISIBILITY_CHOICES.contains(v))
                throw new IllegalArgumentException(
                        "unknown visibility '" + v + "' (choices: " + VISIBILITY_CHOICES + ")");
        }
    }

    /** No regexes, default filters and the default minimums (1024 instructions, 4096 bytes). */
    public static SelectionOptions defaults() {
        return builder().build();
    }

    /** The four minimums after upstream's heuristics. */
    public record Minimums(long instructions, long addressRange, long instructionsLoop, long addressRangeLoop) {}

    /**
     * Upstream's rules (inventory §1.4): with neither given, {@code defaultMin} instructions and
     * 4 x {@code defaultMin} bytes; with only {@code -i}, the address range becomes 0; with only
     * {@code -r}, the instruction count becomes 0; loop values follow the non-loop ones unless set.
     * Arguments are null where the option was not given.
     */
    public static Minimums resolveMinimums(
            Long minInstructions,
            Long minAddressRange,
            Long minInstructionsLoop,
            Long minAddressRangeLoop,
            long defaultMin) {
        long i;
        long r;
        if (minInstructions == null && minAddressRange == null) {
            i = defaultMin;
            r = 4 * defaultMin;
        } else if (minAddressRange == null) {
            i = minInstructions;
            r = 0;
        } else if (minInstructions == null) {
            i = 0;
            r = minAddressRange;
        } else {
            i = minInstructions;
            r = minAddressRange;
        }
        return new Minimums(
                i,
                r,
                minInstructionsLoop != null ? minInstructionsLoop : i,
                minAddressRangeLoop != null ? minAddressRangeLoop : r);
    }

    /** The default minimum from ROCPROFSYS_DEFAULT_MIN_INSTRUCTIONS in {@code env}, else 1024. */
    public static long defaultMinInstructions(Map<String, String> env) {
        String v = env.get("ROCPROFSYS_DEFAULT_MIN_INSTRUCTIONS");
        if (v == null || v.isBlank()) return DEFAULT_MIN_INSTRUCTIONS;
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ROCPROFSYS_DEFAULT_MIN_INSTRUCTIONS is not a number: '" + v + "'");
        }
    }

    /**
     * These options plus the regexes of the ROCPROFSYS_REGEX_* variables in {@code env} (each a
     * single regex, added to the command line's): INCLUDE, EXCLUDE, RESTRICT, CALLER_INCLUDE,
     * INTERNAL_INCLUDE, MODULE_INCLUDE, MODULE_EXCLUDE, MODULE_RESTRICT, MODULE_INTERNAL_INCLUDE,
     * INSTRUCTION_EXCLUDE.
     */
    public SelectionOptions withEnvironment(Map<String, String> env) {
        return toBuilder()
                .functionInclude(fromEnvironment(env, "INCLUDE"))
                .functionExclude(fromEnvironment(env, "EXCLUDE"))
                .functionRestrict(fromEnvironment(env, "RESTRICT"))
                .callerInclude(fromEnvironment(env, "CALLER_INCLUDE"))
                .moduleInclude(fromEnvironment(env, "MODULE_INCLUDE"))
                .moduleExclude(fromEnvironment(env, "MODULE_EXCLUDE"))
                .moduleRestrict(fromEnvironment(env, "MODULE_RESTRICT"))
                .internalFunctionInclude(fromEnvironment(env, "INTERNAL_INCLUDE"))
                .internalModuleInclude(fromEnvironment(env, "MODULE_INTERNAL_INCLUDE"))
                .instructionExclude(fromEnvironment(env, "INSTRUCTION_EXCLUDE"))
                .build();
    }

    /** The regex of ROCPROFSYS_REGEX_{@code suffix}, none where it is unset or empty. */
    private static String[] fromEnvironment(Map<String, String> env, String suffix) {
        String v = env.get("ROCPROFSYS_REGEX_" + suffix);
        return v == null || v.isEmpty() ? new String[0] : new String[] {v};
    }

    /** Compiles command-line regexes. */
    public static List<Pattern> patterns(List<String> regexes) {
        return regexes.stream().map(Pattern::compile).toList();
    }

    public SelectionOptions withMinimums(Minimums m) {
        return toBuilder()
                .minInstructions(m.instructions())
                .minAddressRange(m.addressRange())
                .minInstructionsLoop(m.instructionsLoop())
                .minAddressRangeLoop(m.addressRangeLoop())
                .build();
    }

    public SelectionOptions withInternalLibraries(InternalLibraries libraries) {
        return toBuilder().internalLibraries(libraries).build();
    }

    /**
     * A builder holding these options; all four minimums are given, so {@link Builder#build()}
     * keeps them as they are.
     */
    private Builder toBuilder() {
        Builder b = new Builder();
        b.functionInclude.addAll(functionInclude);
        b.functionExclude.addAll(functionExclude);
        b.functionRestrict.addAll(functionRestrict);
        b.callerInclude.addAll(callerInclude);
        b.moduleInclude.addAll(moduleInclude);
        b.moduleExclude.addAll(moduleExclude);
        b.moduleRestrict.addAll(moduleRestrict);
        b.internalFunctionInclude.addAll(internalFunctionInclude);
        b.internalModuleInclude.addAll(internalModuleInclude);
        b.instructionExclude.addAll(instructionExclude);
        return b.linkage(linkage)
                .visibility(visibility)
                .minInstructions(minInstructions)
                .minAddressRange(minAddressRange)
                .minInstructionsLoop(minInstructionsLoop)
                .minAddressRangeLoop(minAddressRangeLoop)
                .allowOverlapping(allowOverlapping)
                .dynamicCallsites(dynamicCallsites)
                .mainFunction(mainFunction)
                .coverage(coverage)
                .internalLibraries(internalLibraries);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable collector for the CLI and tests; {@link #build()} applies the minimum heuristics. */
    public static final class Builder {
        private final List<Pattern> functionInclude = new ArrayList<>();
        private final List<Pattern> functionExclude = new ArrayList<>();
        private final List<Pattern> functionRestrict = new ArrayList<>();
        private final List<Pattern> callerInclude = new ArrayList<>();
        private final List<Pattern> moduleInclude = new ArrayList<>();
        private final List<Pattern> moduleExclude = new ArrayList<>();
        private final List<Pattern> moduleRestrict = new ArrayList<>();
        private final List<Pattern> internalFunctionInclude = new ArrayList<>();
        private final List<Pattern> internalModuleInclude = new ArrayList<>();
        private final List<Pattern> instructionExclude = new ArrayList<>();
        private Set<String> linkage = DEFAULT_LINKAGE;
        private Set<String> visibility = DEFAULT_VISIBILITY;
        private Long minInstructions;
        private Long minAddressRange;
        private Long minInstructionsLoop;
        private Long minAddressRangeLoop;
        private long defaultMin = DEFAULT_MIN_INSTRUCTIONS;
        private boolean allowOverlapping;
        private boolean dynamicCallsites;
        private String mainFunction = "main";
        private boolean coverage;
        private InternalLibraries internalLibraries = InternalLibraries.NONE;

        private static void add(List<Pattern> to, String... regexes) {
            for (String r : regexes) to.add(Pattern.compile(r));
        }

        public Builder functionInclude(String... r) {
            add(functionInclude, r);
            return this;
        }

        public Builder functionExclude(String... r) {
            add(functionExclude, r);
            return this;
        }

        public Builder functionRestrict(String... r) {
            add(functionRestrict, r);
            return this;
        }

        public Builder callerInclude(String... r) {
            add(callerInclude, r);
            return this;
        }

        public Builder moduleInclude(String... r) {
            add(moduleInclude, r);
            return this;
        }

        public Builder moduleExclude(String... r) {
            add(moduleExclude, r);
            return this;
        }

        public Builder moduleRestrict(String... r) {
            add(moduleRestrict, r);
            return this;
        }

        public Builder internalFunctionInclude(String... r) {
            add(internalFunctionInclude, r);
            return this;
        }

        public Builder internalModuleInclude(String... r) {
            add(internalModuleInclude, r);
            return this;
        }

        public Builder instructionExclude(String... r) {
            add(instructionExclude, r);
            return this;
        }

        public Builder linkage(Set<String> v) {
            linkage = v;
            return this;
        }

        public Builder visibility(Set<String> v) {
            visibility = v;
            return this;
        }

        public Builder minInstructions(long v) {
            minInstructions = v;
            return this;
        }

        public Builder minAddressRange(long v) {
            minAddressRange = v;
            return this;
        }

        public Builder minInstructionsLoop(long v) {
            minInstructionsLoop = v;
            return this;
        }

        public Builder minAddressRangeLoop(long v) {
            minAddressRangeLoop = v;
            return this;
        }
        /** The default minimum ({@link #defaultMinInstructions(Map)}), used when neither -i nor -r is given. */
        public Builder defaultMinInstructions(long v) {
            defaultMin = v;
            return this;
        }

        public Builder allowOverlapping(boolean v) {
            allowOverlapping = v;
            return this;
        }

        public Builder dynamicCallsites(boolean v) {
            dynamicCallsites = v;
            return this;
        }

        public Builder mainFunction(String v) {
            mainFunction = v;
            return this;
        }

        public Builder coverage(boolean v) {
            coverage = v;
            return this;
        }

        public Builder internalLibraries(InternalLibraries v) {
            internalLibraries = v;
            return this;
        }

        public SelectionOptions build() {
            Minimums m = resolveMinimums(
                    minInstructions, minAddressRange, minInstructionsLoop, minAddressRangeLoop, defaultMin);
            return new SelectionOptions(
                    functionInclude,
                    functionExclude,
                    functionRestrict,
                    callerInclude,
                    moduleInclude,
                    moduleExclude,
                    moduleRestrict,
                    internalFunctionInclude,
                    internalModuleInclude,
                    instructionExclude,
                    linkage,
                    visibility,
                    m.instructions(),
                    m.addressRange(),
                    m.instructionsLoop(),
                    m.addressRangeLoop(),
                    allowOverlapping,
                    dynamicCallsites,
                    mainFunction,
                    coverage,
                    internalLibraries);
        }
    }
}
