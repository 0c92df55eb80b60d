package org.rocprofsys.instrument.capstone;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;

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
        MethodHandle csOpen =
                downcall(linker, lib, "cs_open", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
        MethodHandle csOption =
                downcall(linker, lib, "cs_option", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG));
        csDisasm = downcall(
                linker,
                lib,
                "cs_disasm",
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
        MemorySegment sym =
                lib.find(name).orElseThrow(() -> new CapstoneException("Capstone library lacks symbol " + name));
        return linker.downcallHandle(sym, fd);
    }

    /** Opens a handle with the system's Capstone ({@link #SONAMES}, newest first). */
    public static Capstone openX86_64() {
        return open(
                SONAMES,
                "could not load " + String.join(" or ", SONAMES)
                        + " (install the package libcapstone4 on Debian/Ubuntu, or libcapstone5)");
    }

    /** Opens a handle with the Capstone library at {@code library} (tests, unusual installs). */
    public static Capstone openX86_64(Path library) {
        return open(List.of(library.toString()), "could not load " + library);
    }

    private static Capstone open(List<String> candidates, String whyNot) {
        Arena arena = Arena.ofShared();
        if (OptionalLibrary.load("Capstone", candidates, arena) instanceof LibraryLoad.Loaded lib) {
            return construct(lib.lookup(), arena, lib.candidate());
        }
        arena.close();
        throw new CapstoneException("Capstone not found: " + whyNot);
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
                long n = (long) csDisasm.invokeExact(
                        handle, nativeCode.asSlice(off), size - off, address + off, (long) CHUNK, insnPtr);
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

    /**
     * Reads one cs_insn. The struct and the part of its cs_detail that is used are copied into
     * Java arrays first: reading them field by field through the segment costs more than decoding.
     */
    private Insn read(MemorySegment in) {
        byte[] raw = in.toArray(JAVA_BYTE);
        ByteBuffer ib = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        int id = ib.getInt((int) CsLayout.ID);
        long address = ib.getLong((int) CsLayout.ADDRESS);
        int size = Short.toUnsignedInt(ib.getShort((int) CsLayout.SIZE));
        byte[] bytes = Arrays.copyOfRange(raw, (int) CsLayout.BYTES, (int) CsLayout.BYTES + size);
        String mnemonic = cString(raw, (int) layout.mnemonicOff(), CsLayout.MNEMONIC_LEN);
        String opStr = cString(raw, (int) layout.opStrOff(), CsLayout.OP_STR_LEN);
        long from = layout.groupsOff();
        long to = layout.x86Off() + CsLayout.X86_ENCODING + 8;
        byte[] det = in.get(ADDRESS, layout.detailOff())
                .reinterpret(to)
                .asSlice(from, to - from)
                .toArray(JAVA_BYTE);
        ByteBuffer db = ByteBuffer.wrap(det).order(ByteOrder.LITTLE_ENDIAN);
        int groupCount = Byte.toUnsignedInt(det[(int) (layout.groupsCountOff() - from)]);
        Set<Group> groups = EnumSet.noneOf(Group.class);
        for (int i = 0; i < Math.min(groupCount, 8); i++) {
            Group g = Group.of(Byte.toUnsignedInt(det[i]));
            if (g != null) groups.add(g);
        }
        int x86 = (int) (layout.x86Off() - from);
        int opCount = Byte.toUnsignedInt(det[x86 + (int) CsLayout.X86_OP_COUNT]);
        int enc = x86 + (int) CsLayout.X86_ENCODING;
        Insn.RipOperand rip = null;
        Insn.RelativeBranch branch = null;
        boolean branchLike = groups.contains(Group.JUMP)
                || groups.contains(Group.CALL)
                || groups.contains(Group.BRANCH_RELATIVE)
                || mnemonic.equals("xbegin");
        for (int i = 0; i < Math.min(opCount, 8); i++) {
            int op = x86 + (int) (CsLayout.X86_OPERANDS + i * CsLayout.X86_OP_SIZE);
            int type = db.getInt(op + (int) CsLayout.OP_TYPE);
            if (type == CsLayout.X86_OP_MEM && db.getInt(op + (int) CsLayout.OP_MEM_BASE) == CsLayout.X86_REG_RIP) {
                long disp = db.getLong(op + (int) CsLayout.OP_MEM_DISP);
                int dispOffset = ripDisplacementOffset(
                        bytes, Byte.toUnsignedInt(det[enc + (int) CsLayout.ENC_DISP_OFFSET]), (int) disp);
                // A RIP-relative displacement is always 32 bits; Capstone 4 reports disp_size 2 when a
                // 0x66 prefix is present (movdqa), so the size is not taken from it.
                rip = new Insn.RipOperand(dispOffset, dispOffset < 0 ? 0 : 4, address + size + disp);
            } else if (type == CsLayout.X86_OP_IMM && branchLike && i == 0) {
                int immOffset = Byte.toUnsignedInt(det[enc + (int) CsLayout.ENC_IMM_OFFSET]);
                int immSize = Byte.toUnsignedInt(det[enc + (int) CsLayout.ENC_IMM_SIZE]);
                long target = db.getLong(op + (int) CsLayout.OP_IMM);
                long rel = target - (address + size);
                if (!holds(bytes, immOffset, immSize, rel)) {
                    // The displacement of a relative branch is always its last field.
                    immSize = relativeImmediateSize(bytes);
                    immOffset = size - immSize;
                    if (!holds(bytes, immOffset, immSize, rel)) {
                        immSize = 0; // unknown encoding: relocation refuses it
                        immOffset = 0;
                    }
                }
                branch = new Insn.RelativeBranch(immOffset, immSize, target);
            }
        }
        return new Insn(address, size, id, mnemonic, opStr, bytes, groups, rip, branch);
    }

    /**
     * Where the 32-bit displacement lies: Capstone's offset when the bytes there hold it, else the
     * one place that does (-1 when none or several do, so that callers refuse to touch it).
     */
    static int ripDisplacementOffset(byte[] bytes, int reported, int disp) {
        if (reported > 0 && reported + 4 <= bytes.length && le32(bytes, reported) == disp) return reported;
        int found = -1;
        for (int i = 1; i + 4 <= bytes.length; i++) {
            if (le32(bytes, i) == disp) {
                if (found >= 0) return -1;
                found = i;
            }
        }
        return found;
    }

    /** Whether the signed little-endian field at {@code at} of {@code size} bytes (1 or 4) equals {@code value}. */
    private static boolean holds(byte[] b, int at, int size, long value) {
        if (at <= 0 || at + size > b.length) return false;
        return switch (size) {
            case 1 -> b[at] == value;
            case 4 -> le32(b, at) == value;
            default -> false;
        };
    }

    private static int le32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
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
        return v == 0xF0
                || v == 0xF2
                || v == 0xF3
                || v == 0x2E
                || v == 0x36
                || v == 0x3E
                || v == 0x26
                || v == 0x64
                || v == 0x65
                || v == 0x66
                || v == 0x67
                || (v >= 0x40 && v <= 0x4F);
    }

    private static String cString(byte[] b, int off, int max) {
        int n = 0;
        while (n < max && b[off + n] != 0) n++;
        return new String(b, off, n, StandardCharsets.US_ASCII);
    }

    private String strerror(int err) {
        try {
            MemorySegment p = (MemorySegment) csStrerror.invokeExact(err);
            return p.equals(MemorySegment.NULL)
                    ? "error " + err
                    : p.reinterpret(256).getString(0);
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
