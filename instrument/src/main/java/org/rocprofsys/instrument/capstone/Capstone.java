package org.rocprofsys.instrument.capstone;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An x86-64 Capstone handle with instruction details on, through FFM.
 *
 * <p>Not thread-safe (a Capstone handle is not); open one per thread. Close it to release the
 * handle. Instructions are decoded in chunks so that a big function never needs one huge
 * {@code cs_insn} array, and every array Capstone returns is freed with {@code cs_free}.
 */
public final class Capstone implements AutoCloseable {
    /** The sonames tried, newest first; the runtime packages ship only these (no unversioned .so). */
    public static final List<String> SONAMES = List.of("libcapstone.so.5", "libcapstone.so.4");
    private static final int CHUNK = 1024;

    private final Arena arena;
    private final CsLayout layout;
    private final int versionMajor;
    private final int versionMinor;
    private final MethodHandle csDisasm;
    private final MethodHandle csFree;
    private final MethodHandle csClose;
    private final MethodHandle csErrno;
    private final MethodHandle csStrerror;
    private final MemorySegment insnPtr;
    private long handle;

    private Capstone(SymbolLookup lib, Arena arena, String libName) {
        this.arena = arena;
        Linker linker = Linker.nativeLinker();
        MethodHandle csVersion = downcall(linker, lib, "cs_version", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        MethodHandle csOpen = downcall(linker, lib, "cs_open", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
        MethodHandle csOption = downcall(linker, lib, "cs_option", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG));
        csDisasm = downcall(linker, lib, "cs_disasm",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
        csFree = downcall(linker, lib, "cs_free", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG));
        csClose = downcall(linker, lib, "cs_close", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        csErrno = downcall(linker, lib, "cs_errno", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        csStrerror = downcall(linker, lib, "cs_strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        try {
            int version = (int) csVersion.invokeExact(MemorySegment.NULL, MemorySegment.NULL);
            versionMajor = version >>> 8;
            versionMinor = version & 0xff;
            layout = CsLayout.forMajor(versionMajor);
            if (layout == null) {
                throw new CapstoneException(libName + " is Capstone " + versionMajor + "." + versionMinor
                        + ", whose ABI this tool does not know (supported: Capstone 4 and 5)");
            }
            MemorySegment h = arena.allocate(JAVA_LONG);
            int err = (int) csOpen.invokeExact(CsLayout.CS_ARCH_X86, CsLayout.CS_MODE_64, h);
            if (err != 0) {
                throw new CapstoneException("cs_open(x86, 64-bit) failed: " + strerror(err));
            }
            handle = h.get(JAVA_LONG, 0);
            err = (int) csOption.invokeExact(handle, CsLayout.CS_OPT_DETAIL, CsLayout.CS_OPT_ON);
            if (err != 0) {
                throw new CapstoneException("cs_option(CS_OPT_DETAIL) failed: " + strerror(err));
            }
            insnPtr = arena.allocate(ADDRESS);
        } catch (CapstoneException e) {
            throw e;
        } catch (Throwable t) {
            throw new CapstoneException("calling " + libName + " failed", t);
        }
    }

    private static MethodHandle downcall(Linker linker, SymbolLookup lib, String name, FunctionDescriptor fd) {
        MemorySegment sym = lib.find(name)
                .orElseThrow(() -> new CapstoneException("Capstone library lacks symbol " + name));
        return linker.downcallHandle(sym, fd);
    }

    /** Opens a handle with the system's Capstone ({@link #SONAMES}, newest first). */
    public static Capstone openX86_64() {
        List<String> failures = new ArrayList<>();
        for (String soname : SONAMES) {
            Arena arena = Arena.ofShared();
            SymbolLookup lib;
            try {
                lib = SymbolLookup.libraryLookup(soname, arena);
            } catch (IllegalArgumentException e) {
                arena.close();
                failures.add(soname);
                continue;
            }
            return construct(lib, arena, soname);
        }
        throw new CapstoneException("Capstone not found: could not load " + String.join(" or ", failures)
                + " (install the package libcapstone4 on Debian/Ubuntu, or libcapstone5)");
    }

    /** Opens a handle with the Capstone library at {@code library} (tests, unusual installs). */
    public static Capstone openX86_64(Path library) {
        Arena arena = Arena.ofShared();
        SymbolLookup lib;
        try {
            lib = SymbolLookup.libraryLookup(library, arena);
        } catch (IllegalArgumentException e) {
            arena.close();
            throw new CapstoneException("Capstone not found: could not load " + library, e);
        }
        return construct(lib, arena, library.toString());
    }

    private static Capstone construct(SymbolLookup lib, Arena arena, String name) {
        try {
            return new Capstone(lib, arena, name);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    public int versionMajor() {
        return versionMajor;
    }

    public int versionMinor() {
        return versionMinor;
    }

    /** Decodes {@code code} as if it lay at {@code address}; see {@link #disassemble(MemorySegment, long)}. */
    public List<Insn> disassemble(byte[] code, long address) {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment seg = tmp.allocate(Math.max(1, code.length));
            MemorySegment.copy(code, 0, seg, JAVA_BYTE, 0, code.length);
            return disassemble(seg.asSlice(0, code.length), address);
        }
    }

    /**
     * Decodes {@code code} (which lies at {@code address}) from its start until its end or the first
     * byte sequence that is not a valid instruction; the caller can tell the two apart by comparing
     * the last instruction's {@link Insn#end()} with the range's end.
     */
    public List<Insn> disassemble(MemorySegment code, long address) {
        if (handle == 0) throw new IllegalStateException("Capstone handle is closed");
        MemorySegment nativeCode = code;
        Arena tmp = null;
        if (!code.isNative()) {
            tmp = Arena.ofConfined();
            nativeCode = tmp.allocate(Math.max(1, code.byteSize()));
            MemorySegment.copy(code, 0, nativeCode, 0, code.byteSize());
        }
        try {
            List<Insn> out = new ArrayList<>();
            long off = 0;
            long size = code.byteSize();
            while (off < size) {
                long n = (long) csDisasm.invokeExact(handle, nativeCode.asSlice(off), size - off, address + off,
                        (long) CHUNK, insnPtr);
                if (n <= 0) break;
                MemorySegment arr = insnPtr.get(ADDRESS, 0).reinterpret(n * layout.insnSize());
                try {
                    for (long i = 0; i < n; i++) {
                        out.add(read(arr.asSlice(i * layout.insnSize(), layout.insnSize())));
                    }
                } finally {
                    csFree.invokeExact(arr, n);
                }
                Insn last = out.getLast();
                off = last.end() - address;
                if (n < CHUNK) break;
            }
            return out;
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new CapstoneException("cs_disasm failed", t);
        } finally {
            if (tmp != null) tmp.close();
        }
    }

    private Insn read(MemorySegment in) {
        int id = in.get(JAVA_INT, CsLayout.ID);
        long address = in.get(JAVA_LONG, CsLayout.ADDRESS);
        int size = Short.toUnsignedInt(in.get(JAVA_SHORT, CsLayout.SIZE));
        byte[] bytes = in.asSlice(CsLayout.BYTES, size).toArray(JAVA_BYTE);
        String mnemonic = cString(in.asSlice(layout.mnemonicOff(), CsLayout.MNEMONIC_LEN));
        String opStr = cString(in.asSlice(layout.opStrOff(), CsLayout.OP_STR_LEN));
        MemorySegment detail = in.get(ADDRESS, layout.detailOff()).reinterpret(layout.x86Off() + 464);
        int groupCount = Byte.toUnsignedInt(detail.get(JAVA_BYTE, layout.groupsCountOff()));
        Set<Group> groups = EnumSet.noneOf(Group.class);
        for (int i = 0; i < Math.min(groupCount, 8); i++) {
            Group g = Group.of(Byte.toUnsignedInt(detail.get(JAVA_BYTE, layout.groupsOff() + i)));
            if (g != null) groups.add(g);
        }
        MemorySegment x86 = detail.asSlice(layout.x86Off());
        int opCount = Byte.toUnsignedInt(x86.get(JAVA_BYTE, CsLayout.X86_OP_COUNT));
        MemorySegment enc = x86.asSlice(CsLayout.X86_ENCODING);
        Insn.RipOperand rip = null;
        Insn.RelativeBranch branch = null;
        boolean branchLike = groups.contains(Group.JUMP) || groups.contains(Group.CALL)
                || groups.contains(Group.BRANCH_RELATIVE) || mnemonic.equals("xbegin");
        for (int i = 0; i < Math.min(opCount, 8); i++) {
            MemorySegment op = x86.asSlice(CsLayout.X86_OPERANDS + i * CsLayout.X86_OP_SIZE, CsLayout.X86_OP_SIZE);
            int type = op.get(JAVA_INT, CsLayout.OP_TYPE);
            if (type == CsLayout.X86_OP_MEM && op.get(JAVA_INT, CsLayout.OP_MEM_BASE) == CsLayout.X86_REG_RIP) {
                int dispOffset = Byte.toUnsignedInt(enc.get(JAVA_BYTE, CsLayout.ENC_DISP_OFFSET));
                int dispSize = Byte.toUnsignedInt(enc.get(JAVA_BYTE, CsLayout.ENC_DISP_SIZE));
                long disp = op.get(JAVA_LONG, CsLayout.OP_MEM_DISP);
                rip = new Insn.RipOperand(dispOffset, dispSize, address + size + disp);
            } else if (type == CsLayout.X86_OP_IMM && branchLike && i == 0) {
                int immOffset = Byte.toUnsignedInt(enc.get(JAVA_BYTE, CsLayout.ENC_IMM_OFFSET));
                int immSize = Byte.toUnsignedInt(enc.get(JAVA_BYTE, CsLayout.ENC_IMM_SIZE));
                if (immSize == 0) {
                    // The displacement of a relative branch is always its last field.
                    immSize = relativeImmediateSize(bytes);
                    immOffset = size - immSize;
                }
                branch = new Insn.RelativeBranch(immOffset, immSize, op.get(JAVA_LONG, CsLayout.OP_IMM));
            }
        }
        return new Insn(address, size, id, mnemonic, opStr, bytes, groups, rip, branch);
    }

    /** rel8 for the short forms (EB, 70-7F, E0-E3), rel32 otherwise; prefixes skipped. */
    private static int relativeImmediateSize(byte[] bytes) {
        int i = 0;
        while (i < bytes.length && isPrefix(bytes[i])) i++;
        if (i >= bytes.length) return 4;
        int op = Byte.toUnsignedInt(bytes[i]);
        return (op == 0xEB || (op >= 0x70 && op <= 0x7F) || (op >= 0xE0 && op <= 0xE3)) ? 1 : 4;
    }

    static boolean isPrefix(byte b) {
        int v = Byte.toUnsignedInt(b);
        return v == 0xF0 || v == 0xF2 || v == 0xF3 || v == 0x2E || v == 0x36 || v == 0x3E || v == 0x26
                || v == 0x64 || v == 0x65 || v == 0x66 || v == 0x67 || (v >= 0x40 && v <= 0x4F);
    }

    private static String cString(MemorySegment s) {
        long n = 0;
        while (n < s.byteSize() && s.get(JAVA_BYTE, n) != 0) n++;
        return new String(s.asSlice(0, n).toArray(JAVA_BYTE), StandardCharsets.US_ASCII);
    }

    private String strerror(int err) {
        try {
            MemorySegment p = (MemorySegment) csStrerror.invokeExact(err);
            return p.equals(MemorySegment.NULL) ? "error " + err : p.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "error " + err;
        }
    }

    /** Capstone's last error on this handle as text. */
    public String lastError() {
        try {
            return strerror((int) csErrno.invokeExact(handle));
        } catch (Throwable t) {
            return "unknown";
        }
    }

    @Override
    public void close() {
        if (handle == 0) return;
        try {
            MemorySegment h = arena.allocate(JAVA_LONG);
            h.set(JAVA_LONG, 0, handle);
            int ignored = (int) csClose.invokeExact(h);
        } catch (Throwable t) {
            // nothing useful to do: the process keeps a little memory
        } finally {
            handle = 0;
            arena.close();
        }
    }
}
