package org.rocprofsys.instrument.plan;

/**
 * One function symbol of a module as the lists of inventory §6.4 show it.
 *
 * @param module       path of the ELF file the symbol comes from
 * @param name         demangled name without parameters (what a label starts with)
 * @param signature    demangled full signature (the name when it is not a C++ symbol)
 * @param address      st_value: entry address, relative to the module's load bias
 * @param size         st_size in bytes (the address range)
 * @param instructions instructions decoded over the whole range (0 when it could not be decoded)
 * @param linkage      "global", "local", "weak" or "unique" (STB_GLOBAL, STB_LOCAL, STB_WEAK,
 *                     STB_GNU_UNIQUE); over aliases the first of that order wins, as in upstream
 * @param visibility   "default", "hidden", "internal" or "protected" (STV_*; the first of
 *                     default, internal, hidden, protected over aliases)
 */
public record FunctionInfo(
        String module,
        String name,
        String signature,
        long address,
        long size,
        int instructions,
        String linkage,
        String visibility) {}
