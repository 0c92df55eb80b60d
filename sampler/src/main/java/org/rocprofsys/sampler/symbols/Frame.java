package org.rocprofsys.sampler.symbols;

/**
 * One symbolized frame.
 *
 * @param module  the mapped file's path, {@code [vdso]}, the perf map's path for JIT code,
 *                {@code [kernel.kallsyms]}, or {@code [unknown]} where no mapping holds the pc
 * @param symbol  the demangled function name, {@code [unknown]} where no symbol holds the pc
 * @param offset  pc minus the symbol's start (0 for unknown symbols)
 * @param pc      the runtime address as sampled
 * @param vaddr   the link-time address in the module (the pc for JIT and unknown frames)
 * @param file    source file from DWARF, or null
 * @param line    source line from DWARF, or 0
 * @param inlined true for a frame of a function inlined at this pc (not the outermost)
 */
public record Frame(
        String module, String symbol, long offset, long pc, long vaddr, String file, int line, boolean inlined) {
    public static final String UNKNOWN = "[unknown]";

    public boolean known() {
        return !UNKNOWN.equals(symbol);
    }

    Frame withSource(String function, String f, int l, boolean inl) {
        return new Frame(module, function != null ? function : symbol, inl ? 0 : offset, pc, vaddr, f, l, inl);
    }

    /** {@code symbol+0xoff (module)} as perf prints it. */
    @Override
    public String toString() {
        String s = symbol + (offset != 0 ? "+0x" + Long.toHexString(offset) : "") + " (" + module + ")";
        return file != null ? s + " " + file + ":" + line : s;
    }
}
