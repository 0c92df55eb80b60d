package org.rocprofsys.instrument.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rocprofsys.elf.DebugFiles;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfSymbol;
import org.rocprofsys.elf.EntryPoint;
import org.rocprofsys.elf.FrameDescription;
import org.rocprofsys.elf.SectionHeader;

/**
 * One function of a module: all function symbols that start at the same address, merged.
 *
 * <p>Aliases rule: symbols (of .symtab and .dynsym) with the same start address are one function
 * whose size is the largest of theirs. Its name is chosen, in this order, from the symbols with a
 * non-zero size, by binding (global, weak, unique, local), then fewest leading underscores, then
 * shortest, then alphabetically; so {@code malloc} wins over {@code __libc_malloc}. The other
 * names are its aliases.
 *
 * @param mangled    the chosen (mangled) symbol name
 * @param aliases    the other names, mangled
 * @param linkage    see {@link FunctionInfo#linkage()}
 * @param visibility see {@link FunctionInfo#visibility()}
 * @param ifuncResolver the symbol is STT_GNU_IFUNC: its address is the resolver that picks the
 *                      implementation at load time, not the function callers run
 */
record FunctionSymbol(
        long address,
        long size,
        String mangled,
        List<String> aliases,
        String linkage,
        String visibility,
        boolean ifuncResolver) {

    long end() {
        return address + size;
    }

    /**
     * The functions of {@code elf} in address order: defined STT_FUNC/IFUNC symbols in executable
     * sections (of the separate debug file's .symtab too when the file is stripped and
     * {@code debugFiles} finds one), then one {@link #synthetic} function per FDE that no symbol
     * covers.
     */
    static List<FunctionSymbol> collect(ElfFile elf, DebugFiles debugFiles) {
        Map<Long, Map<String, ElfSymbol>> byAddress = new TreeMap<>();
        addSymbols(elf, elf.symbols(), byAddress);
        boolean stripped = elf.sections().stream().noneMatch(s -> s.type() == ElfConstants.SHT_SYMTAB);
        if (stripped) {
            // a debug file keeps the stripped file's section table, so the indices still match
            debugFiles.open(elf).ifPresent(debug -> addSymbols(debug, debug.symtab(), byAddress));
        }
        List<FunctionSymbol> out = new ArrayList<>();
        for (var e : byAddress.entrySet()) {
            List<ElfSymbol> syms = new ArrayList<>(e.getValue().values());
            long size = syms.stream().mapToLong(ElfSymbol::size).max().orElse(0);
            syms.sort(PREFERENCE);
            ElfSymbol chosen = syms.getFirst();
            List<String> aliases = syms.stream().skip(1).map(ElfSymbol::name).toList();
            int linkage =
                    syms.stream().mapToInt(s -> linkageRank(s.bind())).min().orElse(0);
            int visibility = syms.stream()
                    .mapToInt(s -> visibilityRank(s.visibility()))
                    .min()
                    .orElse(0);
            boolean ifunc = syms.stream().anyMatch(s -> s.type() == ElfConstants.STT_GNU_IFUNC);
            out.add(new FunctionSymbol(
                    e.getKey(), size, chosen.name(), aliases, LINKAGE[linkage], VISIBILITY[visibility], ifunc));
        }
        return withFdeFunctions(elf, out);
    }

    /** {@link #collect(ElfFile, DebugFiles)} with the debug files under /usr/lib/debug. */
    static List<FunctionSymbol> collect(ElfFile elf) {
        return collect(elf, DebugFiles.system());
    }

    private static void addSymbols(
            ElfFile owner, List<ElfSymbol> symbols, Map<Long, Map<String, ElfSymbol>> byAddress) {
        for (ElfSymbol s : symbols) {
            if (!s.definedFunction() || s.name().isEmpty()) continue;
            SectionHeader sec =
                    s.shndx() < owner.sections().size() ? owner.sections().get(s.shndx()) : null;
            if (sec != null && !sec.executable()) continue;
            Map<String, ElfSymbol> names = byAddress.computeIfAbsent(s.value(), k -> new LinkedHashMap<>());
            // the .symtab entry comes first and wins over its .dynsym copy
            names.putIfAbsent(s.name(), s);
        }
    }

    /**
     * The function of an FDE that no symbol names, as Dyninst's parser finds functions in a
     * stripped file: named {@code func_0x<address>} (the sampler names it the same way), or
     * {@code main} where {@code _start} passes it ({@link EntryPoint}, as Dyninst finds main), linkage
     * and visibility unknown.
     */
    static FunctionSymbol synthetic(FrameDescription f, long main) {
        String name = f.begin() == main ? "main" : "func_0x" + Long.toHexString(f.begin());
        return new FunctionSymbol(f.begin(), f.size(), name, List.of(), "unknown", "unknown", false);
    }

    /**
     * Adds a {@link #synthetic} function for each FDE in an executable section whose start no
     * symbol covers and whose first row is a callee's entry state (CFA = rsp + 8, return address
     * at [rsp]): the entry hook needs the return address there, and ranges that continue another
     * function's frame (GCC's {@code .cold} parts), PLT stubs and {@code _start} are left out.
     */
    private static List<FunctionSymbol> withFdeFunctions(ElfFile elf, List<FunctionSymbol> symbols) {
        List<FrameDescription> fdes = elf.frameDescriptions();
        if (fdes.isEmpty()) return symbols;
        long main = EntryPoint.main(elf).orElse(-1);
        List<FunctionSymbol> out = new ArrayList<>(symbols.size() + fdes.size());
        int i = 0;
        long coveredTo = 0;
        for (FrameDescription f : fdes) {
            while (i < symbols.size() && symbols.get(i).address() <= f.begin()) {
                FunctionSymbol s = symbols.get(i++);
                out.add(s);
                coveredTo = Math.max(coveredTo, s.end());
            }
            boolean startsHere = !out.isEmpty() && out.getLast().address() == f.begin();
            if (startsHere || f.begin() < coveredTo || !f.entryState()) continue;
            SectionHeader sec = elf.sectionContaining(f.begin()).orElse(null);
            if (sec == null || !sec.executable() || f.end() > sec.addr() + sec.size()) continue;
            out.add(synthetic(f, main));
            coveredTo = f.end();
        }
        while (i < symbols.size()) out.add(symbols.get(i++));
        return out;
    }

    private static final String[] LINKAGE = {"unknown", "global", "local", "weak", "unique"};
    private static final String[] VISIBILITY = {"unknown", "default", "internal", "hidden", "protected"};

    /** Dyninst's SymbolLinkage order, which upstream takes the minimum of. */
    private static int linkageRank(int bind) {
        return switch (bind) {
            case ElfConstants.STB_GLOBAL -> 1;
            case ElfConstants.STB_LOCAL -> 2;
            case ElfConstants.STB_WEAK -> 3;
            case ElfConstants.STB_GNU_UNIQUE -> 4;
            default -> 0;
        };
    }

    /** Dyninst's SymbolVisibility order. */
    private static int visibilityRank(int vis) {
        return switch (vis) {
            case ElfConstants.STV_DEFAULT -> 1;
            case ElfConstants.STV_INTERNAL -> 2;
            case ElfConstants.STV_HIDDEN -> 3;
            case ElfConstants.STV_PROTECTED -> 4;
            default -> 0;
        };
    }

    private static int bindPreference(int bind) {
        return switch (bind) {
            case ElfConstants.STB_GLOBAL -> 0;
            case ElfConstants.STB_WEAK -> 1;
            case ElfConstants.STB_GNU_UNIQUE -> 2;
            default -> 3;
        };
    }

    private static int leadingUnderscores(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == '_') i++;
        return i;
    }

    private static final Comparator<ElfSymbol> PREFERENCE = Comparator.comparing((ElfSymbol s) -> s.size() == 0)
            .thenComparingInt(s -> bindPreference(s.bind()))
            .thenComparingInt(s -> leadingUnderscores(s.name()))
            .thenComparingInt(s -> s.name().length())
            .thenComparing(ElfSymbol::name);
}
