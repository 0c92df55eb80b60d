package org.rocprofsys.instrument.cli;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.config.UnsupportedUse;
import org.rocprofsys.config.cli.ToolCli;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * rocprof-sys-instrument's command line (inventory §1.4): the options in upstream's groups and
 * order (the help test checks DEBUG, MODE, LIBRARY, SYMBOL SELECTION, RUNTIME, GRANULARITY,
 * DYNINST), parsed into an {@link InstrumentRequest}. Dyninst tuning options are accepted and have
 * no effect here (there is no Dyninst).
 */
public final class InstrumentCli {
    public static final String TOOL = "rocprof-sys-instrument";
    static final String DESCRIPTION =
            "    Instruments functions of an executable or library: at run time (-- <CMD> <ARGS>) or"
                    + " by writing an instrumented copy (-o).";

    private final ToolCli cli = new ToolCli(TOOL, DESCRIPTION);

    // DEBUG
    private final OptionSpec verbose =
            cli.valued("debug", "int", "0..1", "N", "Verbose output (no value: 1)", "-v", "--verbose");
    private final OptionSpec error = cli.flag("debug", "All warnings become errors", "-e", "--error");
    private final OptionSpec debug = cli.flag("debug", "Debug output", "--debug");
    private final OptionSpec log =
            cli.valued("debug", "int", "1", "N", "Number of log entries to show on an error", "--log");
    private final OptionSpec logFile =
            cli.valued("debug", "string", "1", "NAME", "Write the log to <output>/instrumentation/NAME", "--log-file");
    private final OptionSpec simulate =
            cli.flag("debug", "Write the function lists and exit without instrumenting", "--simulate");
    private final OptionSpec printFormat = cli.valued(
            "debug", "string", "1..3", "FORMAT", "Formats of the function lists: xml, json, txt", "--print-format");
    private final OptionSpec printDir = cli.valued(
            "debug", "string", "1", "DIR", "Directory of the function lists (the output path)", "--print-dir");
    private final OptionSpec printAvailable = printOption("available");
    private final OptionSpec printInstrumented = printOption("instrumented");
    private final OptionSpec printCoverage = printOption("coverage");
    private final OptionSpec printExcluded = printOption("excluded");
    private final OptionSpec printOverlapping = printOption("overlapping");
    private final OptionSpec printInstructions =
            cli.flag("debug", "Include the instructions in the JSON and XML lists", "--print-instructions");
    // MODE
    private final OptionSpec output = cli.valued(
            "mode",
            "string",
            "0..1",
            "FILE",
            "Write an instrumented copy of the binary (binary rewrite)",
            "-o",
            "--output");
    private final OptionSpec pid = cli.valued("mode", "int", "1", "PID", "Attach to a running process", "-p", "--pid");
    private final OptionSpec mode = cli.valued(
            "mode",
            "string",
            "1",
            "MODE",
            "Instrumentation mode: trace (entry/exit of functions), sampling (main only, sampling on)," + " coverage",
            "-M",
            "--mode");
    private final OptionSpec force =
            cli.flag("mode", "Instrument at run time even if the target looks like a library", "-f", "--force");
    private final OptionSpec command = cli.valued(
            "mode", "string", "1..*", "CMD", "The command, when it is not given after --", "-c", "--command");
    // LIBRARY
    private final OptionSpec prefer = cli.valued(
            "library", "string", "1", "TYPE", "Prefer shared or static libraries (Dyninst; no effect)", "--prefer");
    private final OptionSpec library = cli.valued(
            "library",
            "string",
            "1..*",
            "LIB",
            "Instrumentation libraries (the agent is librocprof-sys.so)",
            "-L",
            "--library");
    private final OptionSpec mainFunction = cli.valued(
            "library", "string", "1", "NAME", "The main function (never instrumented itself)", "-m", "--main-function");
    private final OptionSpec load = cli.valued("library", "string", "1..*", "LIB", "Supplemental libraries", "--load");
    private final OptionSpec loadInstr = cli.valued(
            "library",
            "string",
            "1..*",
            "FILE",
            "Function lists saved by an earlier run (instrumented.json)",
            "--load-instr");
    private final OptionSpec initFunctions = cli.valued(
            "library", "string", "1..*", "NAME", "Functions to call before main (not supported)", "--init-functions");
    private final OptionSpec finiFunctions = cli.valued(
            "library", "string", "1..*", "NAME", "Functions to call after main (not supported)", "--fini-functions");
    private final OptionSpec allFunctions =
            cli.flag("library", "Also list the functions that cannot be instrumented", "--all-functions");
    // SYMBOL SELECTION
    private final OptionSpec functionInclude = regex("-I", "--function-include", "Include functions matching");
    private final OptionSpec functionExclude = regex("-E", "--function-exclude", "Exclude functions matching");
    private final OptionSpec functionRestrict = regex("-R", "--function-restrict", "Only functions matching");
    private final OptionSpec callerInclude =
            regex(null, "--caller-include", "Include functions that call functions" + " matching");
    private final OptionSpec moduleInclude = regex("-MI", "--module-include", "Include modules matching");
    private final OptionSpec moduleExclude = regex("-ME", "--module-exclude", "Exclude modules matching");
    private final OptionSpec moduleRestrict = regex("-MR", "--module-restrict", "Only modules matching");
    private final OptionSpec internalFunctionInclude =
            regex(null, "--internal-function-include", "Include internal functions matching");
    private final OptionSpec internalModuleInclude =
            regex(null, "--internal-module-include", "Include internal modules matching");
    private final OptionSpec instructionExclude =
            regex(null, "--instruction-exclude", "Exclude functions with an instruction matching");
    private final OptionSpec internalLibraryDeps = cli.flag(
            "symbol selection",
            "Treat the libraries the internal libraries link as internal (at run time)",
            "--internal-library-deps");
    private final OptionSpec internalLibraryAppend = cli.valued(
            "symbol selection",
            "string",
            "1..*",
            "LIB",
            "Treat these libraries as internal: their functions are never instrumented",
            "--internal-library-append");
    private final OptionSpec internalLibraryRemove = cli.valued(
            "symbol selection",
            "string",
            "1..*",
            "LIB",
            "Take these libraries out of the internal set (libc, liblzma, ...): their functions become candidates",
            "--internal-library-remove");
    private final OptionSpec linkage = cli.valued(
            "symbol selection",
            "string",
            "1..*",
            "TYPE",
            "Symbol linkages to instrument: global local weak unique (default: global local unique)",
            "--linkage");
    private final OptionSpec visibility = cli.valued(
            "symbol selection",
            "string",
            "1..*",
            "TYPE",
            "Symbol visibilities to instrument (default: default hidden internal protected)",
            "--visibility");
    // RUNTIME
    private final OptionSpec label = cli.valued(
            "runtime",
            "string",
            "1..4",
            "PART",
            "What the region labels carry besides the name: file line return args",
            "--label");
    private final OptionSpec config = cli.valued(
            "runtime",
            "string",
            "1",
            "FILE",
            "Configuration file whose values become defaults embedded in the binary",
            "-C",
            "--config");
    private final OptionSpec env = cli.valued(
            "runtime",
            "string",
            "1..*",
            "VAR=VALUE",
            "Environment defaults embedded in the binary (the user's environment wins)",
            "--env");
    private final OptionSpec mpi = cli.flag("runtime", "MPI support", "--mpi");
    // GRANULARITY
    private final OptionSpec loops =
            cli.flag("granularity", "Instrument loops (not supported)", "-l", "--instrument-loops");
    private final OptionSpec minInstructions = cli.valued(
            "granularity",
            "int",
            "1",
            "N",
            "Instrument functions with at least N instructions (default 1024)",
            "-i",
            "--min-instructions");
    private final OptionSpec minAddressRange = cli.valued(
            "granularity",
            "int",
            "1",
            "N",
            "Instrument functions at least N bytes long (default 4x the minimum instructions)",
            "-r",
            "--min-address-range");
    private final OptionSpec minInstructionsLoop = cli.valued(
            "granularity", "int", "1", "N", "--min-instructions for functions with loops", "--min-instructions-loop");
    private final OptionSpec minAddressRangeLoop = cli.valued(
            "granularity", "int", "1", "N", "--min-address-range for functions with loops", "--min-address-range-loop");
    private final OptionSpec coverage =
            cli.valued("granularity", "string", "1", "TYPE", "Code coverage: none function basic_block", "--coverage");
    private final OptionSpec dynamicCallsites =
            cli.flag("granularity", "Force functions with dynamic call sites", "--dynamic-callsites");
    private final OptionSpec traps =
            cli.flag("granularity", "Allow trap-based instrumentation (Dyninst; no effect)", "--traps");
    private final OptionSpec loopTraps =
            cli.flag("granularity", "Allow trap-based loop instrumentation (no effect)", "--loop-traps");
    private final OptionSpec allowOverlapping =
            cli.flag("granularity", "Allow overlapping functions", "--allow-overlapping");
    private final OptionSpec parseAllModules =
            cli.flag("granularity", "Parse every module (no effect)", "--parse-all-modules");
    // DYNINST
    private final OptionSpec batchSize =
            cli.valued("dyninst", "int", "1", "N", "Dyninst batch size (no effect)", "-b", "--batch-size");
    private final OptionSpec dyninstRt =
            cli.valued("dyninst", "string", "1..*", "PATH", "Dyninst runtime library (no effect)", "--dyninst-rt");
    private final OptionSpec dyninstOptions =
            cli.valued("dyninst", "string", "1..*", "OPTION", "Dyninst options (no effect)", "--dyninst-options");

    public InstrumentCli() {
        cli.describeGroup("debug", "");
    }

    private OptionSpec printOption(String list) {
        return cli.valued(
                "debug",
                "string",
                "1",
                "MODE",
                "Print the " + list + " functions on stdout: functions, modules, functions+, pair, pair+",
                "--print-" + list);
    }

    private OptionSpec regex(String shortName, String longName, String what) {
        String[] names = shortName == null ? new String[] {longName} : new String[] {shortName, longName};
        return cli.valued("symbol selection", "string", "1..*", "REGEX", what + " these regular expressions", names);
    }

    public String help() {
        return cli.help();
    }

    /**
     * Parses {@code args}: options, then {@code --} and the command.
     *
     * @throws InstrumentUsageException for anything that is not a valid command line
     */
    public InstrumentRequest parse(List<String> args) throws InstrumentUsageException {
        int dash = args.indexOf("--");
        List<String> options = dash < 0 ? args : args.subList(0, dash);
        List<String> cmd = dash < 0 ? List.of() : args.subList(dash + 1, args.size());
        ParseResult pr;
        try {
            pr = cli.commandLine().parseArgs(options.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new InstrumentUsageException(e.getMessage());
        }
        if (pr.isUsageHelpRequested()) {
            return InstrumentRequest.help();
        }
        if (pr.isVersionHelpRequested()) {
            return InstrumentRequest.version();
        }
        if (cmd.isEmpty() && pr.hasMatchedOption(command)) {
            cmd = list(pr, command);
        }
        int verbosity = 0;
        if (pr.hasMatchedOption(verbose)) {
            String v = pr.matchedOptionValue(verbose.longestName(), "");
            verbosity = v.isEmpty() ? 1 : integer(v, "--verbose");
        }
        if (bool(pr, debug) && !pr.hasMatchedOption(verbose)) {
            verbosity = 256;
        }
        String modeName = pr.matchedOptionValue(mode.longestName(), "trace");
        if (!List.of("trace", "sampling", "coverage").contains(modeName)) {
            throw new InstrumentUsageException(
                    "invalid value '" + modeName + "' for -M/--mode: choose trace," + " sampling or coverage");
        }
        List<String> formats = pr.hasMatchedOption(printFormat) ? list(pr, printFormat) : List.of("txt", "json");
        for (String f : formats) {
            if (!List.of("txt", "json", "xml").contains(f)) {
                throw new InstrumentUsageException(
                        "invalid value '" + f + "' for --print-format: choose xml, json" + " or txt");
            }
        }
        List<String> labels = pr.hasMatchedOption(label) ? list(pr, label) : List.of();
        for (String l : labels) {
            if (!List.of("file", "line", "return", "args").contains(l)) {
                throw new InstrumentUsageException(
                        "invalid value '" + l + "' for --label: choose file, line," + " return or args");
            }
        }
        List<String[]> envPairs = new ArrayList<>();
        for (String e : list(pr, env)) {
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw new InstrumentUsageException("invalid value '" + e + "' for --env: expected VAR=VALUE");
            }
            envPairs.add(new String[] {e.substring(0, eq), e.substring(eq + 1)});
        }
        java.util.Map<String, String> prints = new java.util.LinkedHashMap<>();
        for (OptionSpec o :
                List.of(printAvailable, printInstrumented, printCoverage, printExcluded, printOverlapping)) {
            if (pr.hasMatchedOption(o)) {
                prints.put(o.longestName().substring("--print-".length()), pr.matchedOptionValue(o.longestName(), ""));
            }
        }
        String coverageKind = pr.matchedOptionValue(coverage.longestName(), "none");
        if (!List.of("none", "function", "basic_block").contains(coverageKind)) {
            throw new InstrumentUsageException(
                    "invalid value '" + coverageKind + "' for --coverage: choose none," + " function or basic_block");
        }
        if ((modeName.equals("coverage") || !coverageKind.equals("none")) && !bool(pr, simulate)) {
            throw new InstrumentUsageException(
                    "code coverage (" + (modeName.equals("coverage") ? "-M coverage" : "--coverage " + coverageKind)
                            + ") is not supported yet: an instrumented binary would record"
                            + " no coverage. --simulate --print-coverage lists the functions coverage would instrument");
        }
        String out = null;
        if (pr.hasMatchedOption(output)) {
            out = pr.matchedOptionValue(output.longestName(), "");
        }
        return new InstrumentRequest(
                InstrumentRequest.Action.INSTRUMENT,
                List.copyOf(cmd),
                verbosity,
                bool(pr, error),
                optionalInt(pr, log),
                pr.matchedOptionValue(logFile.longestName(), null),
                bool(pr, simulate),
                formats,
                pr.matchedOptionValue(printDir.longestName(), null),
                prints,
                bool(pr, printInstructions),
                out,
                optionalInt(pr, pid),
                modeName,
                bool(pr, force),
                pr.matchedOptionValue(mainFunction.longestName(), "main"),
                bool(pr, allFunctions),
                list(pr, functionInclude),
                list(pr, functionExclude),
                list(pr, functionRestrict),
                list(pr, callerInclude),
                list(pr, moduleInclude),
                list(pr, moduleExclude),
                list(pr, moduleRestrict),
                list(pr, internalFunctionInclude),
                list(pr, internalModuleInclude),
                list(pr, instructionExclude),
                pr.hasMatchedOption(linkage) ? list(pr, linkage) : null,
                pr.hasMatchedOption(visibility) ? list(pr, visibility) : null,
                labels,
                pr.matchedOptionValue(config.longestName(), null),
                envPairs,
                bool(pr, loops),
                optionalLong(pr, minInstructions),
                optionalLong(pr, minAddressRange),
                optionalLong(pr, minInstructionsLoop),
                optionalLong(pr, minAddressRangeLoop),
                coverageKind,
                bool(pr, dynamicCallsites),
                bool(pr, allowOverlapping),
                unsupported(pr),
                list(pr, internalLibraryAppend),
                list(pr, internalLibraryRemove),
                bool(pr, internalLibraryDeps));
    }

    /**
     * The options given that this build accepts for compatibility but does not act on (Dyninst's,
     * the library and runtime options of upstream's instrumenter), one warning each.
     */
    private List<UnsupportedUse> unsupported(ParseResult pr) {
        List<UnsupportedUse> out = new ArrayList<>();
        for (OptionSpec o : List.of(
                log,
                prefer,
                library,
                load,
                loadInstr,
                initFunctions,
                finiFunctions,
                mpi,
                loops,
                traps,
                loopTraps,
                parseAllModules,
                batchSize,
                dyninstRt,
                dyninstOptions)) {
            if (!pr.hasMatchedOption(o)) {
                continue;
            }
            // a flag (ToolCli.flag: its value defaults to "true") is named without the value the user
            // did not type, and when turned off it asks for the default: nothing to warn about
            boolean flag = "true".equals(o.fallbackValue());
            if (flag && !bool(pr, o)) {
                continue;
            }
            String value = flag
                    ? ""
                    : String.join(" ", pr.matchedOption(o.longestName()).stringValues());
            out.add(new UnsupportedUse(String.join("/", o.names()), value, "command line"));
        }
        return out;
    }

    private static boolean bool(ParseResult pr, OptionSpec o) {
        if (!pr.hasMatchedOption(o)) {
            return false;
        }
        String v = pr.matchedOptionValue(o.longestName(), "true");
        return !(v.equalsIgnoreCase("false") || v.equalsIgnoreCase("off") || v.equals("0") || v.equalsIgnoreCase("no"));
    }

    private static List<String> list(ParseResult pr, OptionSpec o) {
        if (!pr.hasMatchedOption(o)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String v : pr.<List<String>>matchedOptionValue(o.longestName(), List.of())) {
            out.add(v);
        }
        return out;
    }

    private static Long optionalLong(ParseResult pr, OptionSpec o) throws InstrumentUsageException {
        if (!pr.hasMatchedOption(o)) {
            return null;
        }
        String v = pr.matchedOptionValue(o.longestName(), "");
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new InstrumentUsageException("invalid value '" + v + "' for " + o.longestName() + ": not an integer");
        }
    }

    private static Integer optionalInt(ParseResult pr, OptionSpec o) throws InstrumentUsageException {
        Long v = optionalLong(pr, o);
        return v == null ? null : v.intValue();
    }

    private static int integer(String v, String option) throws InstrumentUsageException {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new InstrumentUsageException("invalid value '" + v + "' for " + option + ": not an integer");
        }
    }
}
