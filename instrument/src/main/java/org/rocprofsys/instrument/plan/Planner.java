package org.rocprofsys.instrument.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rocprofsys.elf.DebugFiles;
import org.rocprofsys.elf.Demangler;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfFormatException;
import org.rocprofsys.elf.dwarf.LineInfo;
import org.rocprofsys.instrument.capstone.Capstone;
import org.rocprofsys.instrument.capstone.Insn;
import org.rocprofsys.instrument.select.Decision;
import org.rocprofsys.instrument.select.FunctionFacts;
import org.rocprofsys.instrument.select.FunctionSelector;
import org.rocprofsys.instrument.select.SelectionMessage;
import org.rocprofsys.instrument.select.SignatureParts;

/**
 * Turns one module into an {@link InstrumentPlan}: collects its function symbols, decodes every
 * function with Capstone, applies the selection rules, and plans the entry patch of each selected
 * function (see {@link PrologueRelocator} for the patchability rules).
 *
 * <p>The Capstone handle belongs to the caller; a Planner is as single-threaded as the handle.
 */
public final class Planner {
    private final Capstone capstone;
    private final Demangler demangler = new Demangler();

    public Planner(Capstone capstone) {
        this.capstone = capstone;
    }

    private record Scanned(FunctionSymbol symbol, FunctionInfo info, FunctionScan scan) {}

    public PlanResult plan(ElfFile elf, PlannerOptions options) throws ElfFormatException {
        if (elf.type() != ElfConstants.ET_EXEC && elf.type() != ElfConstants.ET_DYN) {
            throw new ElfFormatException(
                    elf.path() + ": not an executable or shared library (ELF type " + elf.type() + ")");
        }
        String module = elf.path().toString();
        List<FunctionSymbol> symbols = FunctionSymbol.collect(elf);
        Map<Long, String> plt = PltNames.read(elf, capstone);

        // one decoding pass over every function
        List<Scanned> scanned = new ArrayList<>(symbols.size());
        Addresses branchTargets = new Addresses();
        Addresses starts = new Addresses();
        // instruction text per basic block is big: built only when --instruction-exclude needs it
        boolean withBlocks = !options.selection().instructionExclude().isEmpty();
        Map<Long, Scanned> byAddress = new HashMap<>();
        for (FunctionSymbol s : symbols) {
            FunctionScan scan = FunctionScan.of(s.address(), s.size(), decode(elf, s), withBlocks);
            String signature = demangler.demangle(s.mangled());
            String name = SignatureParts.parse(signature).name();
            FunctionInfo info = new FunctionInfo(
                    module, name, signature, s.address(), s.size(), scan.instructions(), s.linkage(), s.visibility());
            Scanned sc = new Scanned(s, info, scan);
            scanned.add(sc);
            byAddress.put(s.address(), sc);
            starts.add(s.address());
            branchTargets.addAll(scan.branchTargets());
        }

        // code that no symbol covers (stripped local functions, cold parts) can branch into an entry too
        branchTargets.addAll(GapScanner.branchTargets(elf, capstone, symbols));

        Set<Long> overlappingAt = overlaps(scanned);

        Map<Long, List<String>> aliases = new HashMap<>();
        for (Scanned sc : scanned) {
            if (!sc.symbol().aliases().isEmpty()) {
                aliases.put(
                        sc.symbol().address(),
                        sc.symbol().aliases().stream()
                                .map(a -> SignatureParts.parse(demangler.demangle(a))
                                        .name())
                                .toList());
            }
        }

        // the line table names each function's source file (for module regexes) and labels' file:line
        var sel = options.selection();
        boolean moduleRegexes = !sel.moduleExclude().isEmpty()
                || !sel.moduleInclude().isEmpty()
                || !sel.moduleRestrict().isEmpty();
        LineInfo lines = options.label().needsLines() || moduleRegexes ? lines(elf) : null;
        try {
            return plan(elf, options, scanned, byAddress, plt, branchTargets, starts, overlappingAt, aliases, lines);
        } finally {
            if (lines != null) lines.close();
        }
    }

    private PlanResult plan(
            ElfFile elf,
            PlannerOptions options,
            List<Scanned> scanned,
            Map<Long, Scanned> byAddress,
            Map<Long, String> plt,
            Addresses branchTargets,
            Addresses starts,
            Set<Long> overlappingAt,
            Map<Long, List<String>> aliases,
            LineInfo lines) {
        String module = elf.path().toString();
        FunctionSelector selector = new FunctionSelector(options.selection());
        PrologueRelocator relocator = new PrologueRelocator(branchTargets, starts, elf.highestLoadEnd());

        List<FunctionInfo> available = new ArrayList<>();
        List<PlannedFunction> instrumented = new ArrayList<>();
        List<Exclusion> excluded = new ArrayList<>();
        List<FunctionInfo> overlapping = new ArrayList<>();
        List<SelectionMessage> messages = new ArrayList<>();
        for (int index = 0; index < scanned.size(); index++) {
            Scanned sc = scanned.get(index);
            FunctionInfo info = sc.info();
            boolean overlaps = overlappingAt.contains(info.address());
            if (overlaps) overlapping.add(info);
            // functions with nothing to decode appear in the lists only with --all-functions
            boolean listed = options.allFunctions() || sc.scan().decodable();
            if (listed) available.add(info);
            FunctionFacts facts = new FunctionFacts(
                    info,
                    sc.scan().decodable(),
                    calledNames(sc.scan(), byAddress, plt),
                    sc.scan().hasLoops(),
                    sc.scan().dynamicCallsites(),
                    overlaps,
                    sc.scan().basicBlocks(),
                    lines == null
                            ? ""
                            : lines.lookup(info.address())
                                    .map(LineInfo.Location::fileName)
                                    .orElse(""));
            Decision d = selector.decide(facts);
            messages.addAll(d.messages());
            if (!d.instrument()) {
                if (listed) excluded.add(new Exclusion(info, d.reason()));
                continue;
            }
            PrologueRelocator.Result r = patch(scanned, index, relocator);
            String refusal = r.refusal();
            if (refusal == null && options.mode() == 1) refusal = "sampling-mode";
            if (refusal != null) {
                messages.add(new SelectionMessage(2, "Skipping", "function", refusal, info.name()));
                excluded.add(new Exclusion(info, refusal));
                continue;
            }
            messages.add(new SelectionMessage(1, "Instrumenting", "function", "no-constraint", info.name()));
            instrumented.add(new PlannedFunction(
                    info,
                    options.label()
                            .label(info.signature(), lines == null ? Optional.empty() : lines.lookup(info.address())),
                    r.patchLength(),
                    r.code(),
                    r.fixups()));
        }
        InstrumentPlan plan = new InstrumentPlan(
                elf.path(),
                elf.type() == ElfConstants.ET_DYN,
                available,
                instrumented,
                excluded,
                overlapping,
                options.mode());
        return new PlanResult(plan, aliases, messages);
    }

    /** Start addresses of functions whose ranges overlap another's partially (same-start symbols are merged). */
    private static Set<Long> overlaps(List<Scanned> scanned) {
        Set<Long> at = new HashSet<>();
        for (int i = 0; i < scanned.size(); i++) {
            FunctionSymbol a = scanned.get(i).symbol();
            for (int j = i + 1; j < scanned.size() && scanned.get(j).symbol().address() < a.end(); j++) {
                at.add(a.address());
                at.add(scanned.get(j).symbol().address());
            }
        }
        return at;
    }

    /** The entry patch of a selected function, or the reason it cannot have one. */
    private static PrologueRelocator.Result patch(List<Scanned> scanned, int index, PrologueRelocator relocator) {
        Scanned sc = scanned.get(index);
        if (sc.symbol().ifuncResolver()) return PrologueRelocator.Result.refused("ifunc-resolver");
        if (fallsInto(scanned, index)) return PrologueRelocator.Result.refused("fallthrough-into-entry");
        if (sc.scan().jumpsToEntry()) return PrologueRelocator.Result.refused("jump-to-entry");
        return relocator.plan(sc.info().address(), sc.info().size(), sc.scan().prologue());
    }

    /**
     * Whether the function before {@code f} (in address order, ending at most 64 bytes of padding
     * before it) runs on into it: then its entry is reached without a call and the entry hook would
     * take whatever is on the stack for a return address.
     */
    private static boolean fallsInto(List<Scanned> scanned, int i) {
        if (i <= 0) return false;
        Scanned f = scanned.get(i);
        Scanned prev = scanned.get(i - 1);
        long gap = f.symbol().address() - prev.symbol().end();
        return prev.scan().fallsThrough() && gap >= 0 && gap < 64;
    }

    /** The line table of {@code elf}, else of its separate debug file; null when neither has one. */
    private static LineInfo lines(ElfFile elf) {
        return LineInfo.open(elf.path())
                .or(() -> DebugFiles.system().open(elf).flatMap(d -> LineInfo.open(d.path())))
                .orElse(null);
    }

    private List<Insn> decode(ElfFile elf, FunctionSymbol s) {
        if (s.size() <= 0) return List.of();
        try {
            return capstone.disassemble(elf.segmentAt(s.address(), s.size()), s.address());
        } catch (IllegalArgumentException notInFile) {
            return List.of();
        }
    }

    /** Names of directly called functions: the callee's name and aliases, or the PLT stub's import. */
    private Set<String> calledNames(FunctionScan scan, Map<Long, Scanned> byAddress, Map<Long, String> plt) {
        Set<String> out = new LinkedHashSet<>();
        for (long t : scan.callTargets()) {
            Scanned callee = byAddress.get(t);
            if (callee != null) {
                out.add(callee.info().name());
                for (String a : callee.symbol().aliases())
                    out.add(SignatureParts.parse(demangler.demangle(a)).name());
            } else {
                String imported = plt.get(t);
                if (imported != null)
                    out.add(SignatureParts.parse(demangler.demangle(imported)).name());
            }
        }
        return out;
    }
}
