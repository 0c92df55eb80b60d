package org.rocprofsys.instrument.cli;

import java.util.List;
import java.util.Map;
import org.rocprofsys.config.UnsupportedUse;

/**
 * A parsed rocprof-sys-instrument command line (inventory §1.4); null means "not given".
 * {@code unsupported}: the options given that have no effect in this build, for one warning each.
 */
public record InstrumentRequest(
        Action action,
        List<String> command,
        int verbose,
        boolean error,
        Integer logCount,
        String logFile,
        boolean simulate,
        List<String> printFormats,
        String printDir,
        Map<String, String> prints,
        boolean printInstructions,
        String output,
        Integer pid,
        String mode,
        boolean force,
        String mainFunction,
        boolean allFunctions,
        List<String> functionInclude,
        List<String> functionExclude,
        List<String> functionRestrict,
        List<String> callerInclude,
        List<String> moduleInclude,
        List<String> moduleExclude,
        List<String> moduleRestrict,
        List<String> internalFunctionInclude,
        List<String> internalModuleInclude,
        List<String> instructionExclude,
        List<String> linkage,
        List<String> visibility,
        List<String> label,
        String configFile,
        List<String[]> env,
        boolean loops,
        Long minInstructions,
        Long minAddressRange,
        Long minInstructionsLoop,
        Long minAddressRangeLoop,
        String coverage,
        boolean dynamicCallsites,
        boolean allowOverlapping,
        List<UnsupportedUse> unsupported,
        List<String> internalLibraryAppend,
        List<String> internalLibraryRemove,
        boolean internalLibraryDeps) {

    public enum Action {
        HELP,
        VERSION,
        INSTRUMENT
    }

    static InstrumentRequest help() {
        return empty(Action.HELP);
    }

    static InstrumentRequest version() {
        return empty(Action.VERSION);
    }

    private static InstrumentRequest empty(Action a) {
        return new InstrumentRequest(
                a, List.of(), 0, false, null, null, false, List.of(), null, Map.of(), false, null, null, "trace", false,
                "main", false, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), null, null, List.of(), null, List.of(), false, null, null, null, null, "none",
                false, false, List.of(), List.of(), List.of(), false);
    }

    /** Binary rewrite ({@code -o}). */
    public boolean rewrite() {
        return output != null;
    }

    /** 0 trace, 1 sampling, 2 coverage. */
    public int modeNumber() {
        return switch (mode) {
            case "sampling" -> 1;
            case "coverage" -> 2;
            default -> 0;
        };
    }
}
