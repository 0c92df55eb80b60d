package org.rocprofsys.elf;

/** Looking up the tests' symbols by name. */
public final class TestSymbols {
    private TestSymbols() {}

    /** The first .symtab symbol named {@code name}; fails when there is none. */
    public static ElfSymbol named(ElfFile elf, String name) {
        return elf.symtab().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no symbol " + name + " in " + elf.path()));
    }
}
