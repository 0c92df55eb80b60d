package org.rocprofsys.sampler.symbols;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The native calls of symbolization through FFM: libc (open, close, free), libelf.so.1, libdw.so.1
 * and __cxa_demangle of libstdc++.so.6, all looked up by soname (the unversioned .so names exist
 * only with the -dev packages). Each library is looked up lazily in its own holder class, so a
 * missing libdw only disables line info.
 */
final class Native {
    private Native() {
    }

    static final Linker LINKER = Linker.nativeLinker();
    static final int O_RDONLY = 0;
    static final int O_CLOEXEC = 0x80000;

    static MethodHandle handle(SymbolLookup lookup, String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment addr = lookup.find(name).orElseThrow(() -> new UnsatisfiedLinkError("no native symbol " + name));
        return LINKER.downcallHandle(addr, fd, options);
    }

    /** A NUL-terminated C string, or null for NULL. */
    static String cstr(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? null : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    static final class Libc {
        private Libc() {
        }

        private static final SymbolLookup LIBC = LINKER.defaultLookup();
        /** open is variadic (mode): fixed arguments are path and flags. */
        static final MethodHandle OPEN = handle(LIBC, "open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT),
                Linker.Option.firstVariadicArg(2));
        static final MethodHandle CLOSE = handle(LIBC, "close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        static final MethodHandle FREE = handle(LIBC, "free", FunctionDescriptor.ofVoid(ADDRESS));

        /** open(path, O_RDONLY|O_CLOEXEC), -1 on failure. */
        static int openRead(String path) {
            try (Arena a = Arena.ofConfined()) {
                return (int) OPEN.invokeExact(a.allocateFrom(path), O_RDONLY | O_CLOEXEC);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        static void close(int fd) {
            try {
                int rc = (int) CLOSE.invokeExact(fd);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        static void free(MemorySegment p) {
            try {
                FREE.invokeExact(p);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }
    }

    static final class Elf {
        private Elf() {
        }

        static final int EV_CURRENT = 1;
        static final int ELF_C_READ_MMAP = 8;
        static final int ELF_K_ELF = 3;

        private static final SymbolLookup L = SymbolLookup.libraryLookup("libelf.so.1", Arena.global());
        static final MethodHandle ELF_VERSION = handle(L, "elf_version", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        static final MethodHandle ELF_BEGIN = handle(L, "elf_begin",
                FunctionDescriptor.of(ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
        static final MethodHandle ELF_MEMORY = handle(L, "elf_memory",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG));
        static final MethodHandle ELF_END = handle(L, "elf_end", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle ELF_KIND = handle(L, "elf_kind", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle GELF_GETEHDR = handle(L, "gelf_getehdr",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        static final MethodHandle ELF_GETPHDRNUM = handle(L, "elf_getphdrnum",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle GELF_GETPHDR = handle(L, "gelf_getphdr",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        static final MethodHandle ELF_NEXTSCN = handle(L, "elf_nextscn",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        static final MethodHandle GELF_GETSHDR = handle(L, "gelf_getshdr",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        static final MethodHandle ELF_GETDATA = handle(L, "elf_getdata",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        static final MethodHandle GELF_GETSYM = handle(L, "gelf_getsym",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        static final MethodHandle ELF_STRPTR = handle(L, "elf_strptr",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG));
        static final MethodHandle ELF_ERRNO = handle(L, "elf_errno", FunctionDescriptor.of(JAVA_INT));
        static final MethodHandle ELF_ERRMSG = handle(L, "elf_errmsg", FunctionDescriptor.of(ADDRESS, JAVA_INT));

        static {
            try {
                int v = (int) ELF_VERSION.invokeExact(EV_CURRENT);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        static String errmsg() {
            try {
                int e = (int) ELF_ERRNO.invokeExact();
                return cstr((MemorySegment) ELF_ERRMSG.invokeExact(e));
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }
    }

    static final class Dw {
        private Dw() {
        }

        static final int DWARF_C_READ = 0;
        static final int DW_TAG_subprogram = 0x2e;
        static final int DW_TAG_inlined_subroutine = 0x1d;
        static final int DW_AT_call_file = 0x58;
        static final int DW_AT_call_line = 0x59;
        static final int DW_AT_linkage_name = 0x6e;
        static final int DW_AT_MIPS_linkage_name = 0x2007;
        /** sizeof(Dwarf_Die): void *addr; Dwarf_CU *cu; Dwarf_Abbrev *abbrev; long padding. */
        static final long DIE_SIZE = 32;
        /** sizeof(Dwarf_Attribute): unsigned code, form; unsigned char *valp; Dwarf_CU *cu. */
        static final long ATTR_SIZE = 24;

        private static final SymbolLookup L = SymbolLookup.libraryLookup("libdw.so.1", Arena.global());
        static final MethodHandle DWARF_BEGIN = handle(L, "dwarf_begin",
                FunctionDescriptor.of(ADDRESS, JAVA_INT, JAVA_INT));
        static final MethodHandle DWARF_END = handle(L, "dwarf_end", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle DWARF_ADDRDIE = handle(L, "dwarf_addrdie",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        static final MethodHandle DWARF_GETSRC_DIE = handle(L, "dwarf_getsrc_die",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG));
        static final MethodHandle DWARF_LINENO = handle(L, "dwarf_lineno",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle DWARF_LINESRC = handle(L, "dwarf_linesrc",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        static final MethodHandle DWARF_GETSCOPES = handle(L, "dwarf_getscopes",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
        static final MethodHandle DWARF_GETSCOPES_DIE = handle(L, "dwarf_getscopes_die",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle DWARF_TAG = handle(L, "dwarf_tag", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle DWARF_DIENAME = handle(L, "dwarf_diename",
                FunctionDescriptor.of(ADDRESS, ADDRESS));
        static final MethodHandle DWARF_ATTR_INTEGRATE = handle(L, "dwarf_attr_integrate",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        static final MethodHandle DWARF_FORMSTRING = handle(L, "dwarf_formstring",
                FunctionDescriptor.of(ADDRESS, ADDRESS));
        static final MethodHandle DWARF_FORMUDATA = handle(L, "dwarf_formudata",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle DWARF_GETSRCFILES = handle(L, "dwarf_getsrcfiles",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        static final MethodHandle DWARF_FILESRC = handle(L, "dwarf_filesrc",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    }

    static final class Cxx {
        private Cxx() {
        }

        static final Optional<MethodHandle> CXA_DEMANGLE = find();

        private static Optional<MethodHandle> find() {
            try {
                SymbolLookup l = SymbolLookup.libraryLookup("libstdc++.so.6", Arena.global());
                return Optional.of(handle(l, "__cxa_demangle",
                        FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)));
            } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                return Optional.empty();
            }
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
