package org.rocprofsys.elf.dwarf;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.List;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;

/**
 * The calls of elfutils' libdw.so.1 that {@link LineInfo} makes, looked up on first use of this
 * class; {@link #LOAD} says why they are absent where libdw cannot be loaded.
 */
final class Libdw {
    private Libdw() {}

    static final int DWARF_C_READ = 0;
    static final int DW_AT_name = 0x03;
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

    static final LibraryLoad LOAD = OptionalLibrary.loadForever("libdw (elfutils)", List.of("libdw.so.1"));

    static final MethodHandle DWARF_BEGIN = handle("dwarf_begin", FunctionDescriptor.of(ADDRESS, JAVA_INT, JAVA_INT));
    static final MethodHandle DWARF_END = handle("dwarf_end", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    static final MethodHandle DWARF_ADDRDIE =
            handle("dwarf_addrdie", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
    static final MethodHandle DWARF_GETSRC_DIE =
            handle("dwarf_getsrc_die", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG));
    static final MethodHandle DWARF_LINENO = handle("dwarf_lineno", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle DWARF_LINESRC =
            handle("dwarf_linesrc", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle DWARF_GETSCOPES =
            handle("dwarf_getscopes", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
    static final MethodHandle DWARF_GETSCOPES_DIE =
            handle("dwarf_getscopes_die", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle DWARF_TAG = handle("dwarf_tag", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    static final MethodHandle DWARF_ATTR_INTEGRATE =
            handle("dwarf_attr_integrate", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
    static final MethodHandle DWARF_FORMSTRING = handle("dwarf_formstring", FunctionDescriptor.of(ADDRESS, ADDRESS));
    static final MethodHandle DWARF_FORMUDATA =
            handle("dwarf_formudata", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle DWARF_GETSRCFILES =
            handle("dwarf_getsrcfiles", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle DWARF_FILESRC =
            handle("dwarf_filesrc", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));

    /** True when libdw loaded with every call above. */
    static boolean available() {
        return DWARF_BEGIN != null && DWARF_FILESRC != null;
    }

    private static MethodHandle handle(String name, FunctionDescriptor fd) {
        return LOAD instanceof LibraryLoad.Loaded lib
                ? lib.optionalDowncall(name, fd).orElse(null)
                : null;
    }
}
