package org.rocprofsys.instrument.area;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes and validates an instrumentation area (docs/instrumentation.md, "Area format"):
 * the reader the agent would be, in Java, for tests and for {@code --print-*} style tooling.
 */
public final class AreaReader {
    private AreaReader() {}

    /** A decoded, validated area. */
    public record Decoded(
            int version,
            int flags,
            int mode,
            int rxSize,
            int dataOff,
            int areaSize,
            long areaVaddr,
            int stubOff,
            List<Area.Function> functions,
            List<Area.Reloc> relocs,
            Map<String, String> env) {
        public boolean applied() {
            return (flags & AreaFormat.FLAG_APPLIED) != 0;
        }
    }

    /** Thrown for bytes that are not a valid area. */
    public static final class InvalidAreaException extends IllegalArgumentException {
        InvalidAreaException(String message) {
            super(message);
        }
    }

    /**
     * Decodes {@code a} and checks every structural rule: magic, version, table bounds and
     * alignment, page sizes, labels, trampoline heads (fid = index, call to the one stub), the stub
     * bytes, reloc fields inside the RX part and not overlapping, a zero data page.
     *
     * @throws InvalidAreaException naming the first rule broken
     */
    public static Decoded read(byte[] a) {
        check(a.length >= AreaFormat.HEADER_SIZE, "shorter than the header (%d bytes)", a.length);
        check(AreaFormat.getLong(a, AreaFormat.H_MAGIC) == AreaFormat.MAGIC, "bad magic");
        int version = AreaFormat.getInt(a, AreaFormat.H_VERSION);
        check(
                version == AreaFormat.VERSION || version == AreaFormat.VERSION_NO_LANDING,
                "version %d, expected %d or %d",
                version,
                AreaFormat.VERSION,
                AreaFormat.VERSION_NO_LANDING);
        boolean landing = version == AreaFormat.VERSION;
        int headSize = landing ? AreaFormat.TRAMP_HEAD_SIZE : AreaFormat.TRAMP_STUB_CALL_END;
        int flags = AreaFormat.getInt(a, AreaFormat.H_FLAGS);
        int nfuncs = AreaFormat.getInt(a, AreaFormat.H_NFUNCS);
        int nrelocs = AreaFormat.getInt(a, AreaFormat.H_NRELOCS);
        int funcsOff = AreaFormat.getInt(a, AreaFormat.H_FUNCS_OFF);
        int relocsOff = AreaFormat.getInt(a, AreaFormat.H_RELOCS_OFF);
        int strtabOff = AreaFormat.getInt(a, AreaFormat.H_STRTAB_OFF);
        int strtabSize = AreaFormat.getInt(a, AreaFormat.H_STRTAB_SIZE);
        int envOff = AreaFormat.getInt(a, AreaFormat.H_ENV_OFF);
        int mode = AreaFormat.getInt(a, AreaFormat.H_MODE);
        int rxSize = AreaFormat.getInt(a, AreaFormat.H_RX_SIZE);
        int dataOff = AreaFormat.getInt(a, AreaFormat.H_DATA_OFF);
        int areaSize = AreaFormat.getInt(a, AreaFormat.H_AREA_SIZE);
        long areaVaddr = AreaFormat.getLong(a, AreaFormat.H_AREA_VADDR);

        check(mode >= 0 && mode <= 2, "mode %d", mode);
        check((flags & ~AreaFormat.FLAG_APPLIED) == 0, "unknown flags 0x%x", flags);
        check(rxSize > 0 && rxSize % AreaFormat.PAGE == 0, "rx_size 0x%x is not a page multiple", rxSize);
        check(dataOff == rxSize, "data_off 0x%x != rx_size 0x%x", dataOff, rxSize);
        check(areaSize == rxSize + AreaFormat.PAGE, "area_size 0x%x != rx_size + page", areaSize);
        check(areaSize == a.length, "area_size 0x%x but %d bytes given", areaSize, a.length);
        check((flags & AreaFormat.FLAG_APPLIED) != 0 || areaVaddr == 0, "area_vaddr set but relocations not applied");
        check(nfuncs >= 0 && nrelocs >= 0 && strtabSize >= 0, "negative count");
        checkTable("funcs", funcsOff, (long) nfuncs * AreaFormat.FUNC_SIZE, 8, rxSize);
        checkTable("relocs", relocsOff, (long) nrelocs * AreaFormat.RELOC_SIZE, 8, rxSize);
        checkTable("strtab", strtabOff, strtabSize, 1, rxSize);
        check(strtabSize == 0 || a[strtabOff + strtabSize - 1] == 0, "strtab not NUL-terminated");
        check(
                disjoint(funcsOff, nfuncs * AreaFormat.FUNC_SIZE, relocsOff, nrelocs * AreaFormat.RELOC_SIZE)
                        && disjoint(funcsOff, nfuncs * AreaFormat.FUNC_SIZE, strtabOff, strtabSize)
                        && disjoint(relocsOff, nrelocs * AreaFormat.RELOC_SIZE, strtabOff, strtabSize)
                        && funcsOff >= AreaFormat.HEADER_SIZE
                        && relocsOff >= AreaFormat.HEADER_SIZE
                        && strtabOff >= AreaFormat.HEADER_SIZE,
                "tables overlap each other or the header");

        Map<String, String> env = new LinkedHashMap<>();
        int tablesEnd = Math.max(
                funcsOff + nfuncs * AreaFormat.FUNC_SIZE,
                Math.max(relocsOff + nrelocs * AreaFormat.RELOC_SIZE, strtabOff + strtabSize));
        if (envOff != 0) {
            checkTable("env", envOff, 2, 8, rxSize);
            check(envOff >= tablesEnd, "env block overlaps the tables");
            int p = envOff;
            while (true) {
                int e = p;
                while (e < rxSize && a[e] != 0) {
                    e++;
                }
                check(e < rxSize, "env block not terminated");
                if (e == p) {
                    break;
                }
                String entry = new String(a, p, e - p, StandardCharsets.UTF_8);
                int eq = entry.indexOf('=');
                check(eq > 0, "env entry '%s' without NAME=", entry);
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
                p = e + 1;
            }
            tablesEnd = Math.max(tablesEnd, p + 1);
        }

        List<Area.Function> funcs = new ArrayList<>(nfuncs);
        int stubOff = -1;
        for (int i = 0; i < nfuncs; i++) {
            int fo = funcsOff + i * AreaFormat.FUNC_SIZE;
            long funcVaddr = AreaFormat.getLong(a, fo + AreaFormat.F_FUNC_VADDR);
            int t = AreaFormat.getInt(a, fo + AreaFormat.F_TRAMP_OFF);
            int nameOff = AreaFormat.getInt(a, fo + AreaFormat.F_NAME_OFF);
            int patchLen = AreaFormat.getInt(a, fo + AreaFormat.F_PATCH_LEN);
            check(nameOff >= 0 && nameOff < strtabSize, "function %d: name_off %d outside strtab", i, nameOff);
            int ne = strtabOff + nameOff;
            while (a[ne] != 0) {
                ne++;
            }
            String label = new String(a, strtabOff + nameOff, ne - strtabOff - nameOff, StandardCharsets.UTF_8);
            check(patchLen >= 5, "function %d (%s): patch_len %d < 5", i, label, patchLen);
            check(
                    t >= tablesEnd && t >= 0 && t + headSize + AreaFormat.TRAMP_TAIL_SIZE <= rxSize,
                    "function %d (%s): tramp_off 0x%x outside the code",
                    i,
                    label,
                    t);
            check(
                    (a[t] & 0xFF) == 0x68 && AreaFormat.getInt(a, t + 1) == i,
                    "function %d (%s): trampoline does not start with push %d",
                    i,
                    label,
                    i);
            check((a[t + 5] & 0xFF) == 0xE8, "function %d (%s): no call after push", i, label);
            int target = t + AreaFormat.TRAMP_STUB_CALL_END + AreaFormat.getInt(a, t + 6);
            check(
                    !landing
                            || Arrays.equals(
                                    a,
                                    t,
                                    t + AreaFormat.TRAMP_HEAD_SIZE,
                                    AreaFormat.trampolineHead(t, i, target, dataOff),
                                    0,
                                    AreaFormat.TRAMP_HEAD_SIZE),
                    "function %d (%s): trampoline head differs from the contract (landing)",
                    i,
                    label);
            if (stubOff < 0) {
                stubOff = target;
            }
            check(target == stubOff, "function %d (%s): calls 0x%x, not the stub at 0x%x", i, label, target, stubOff);
            funcs.add(new Area.Function(funcVaddr, t, patchLen, label));
        }
        if (stubOff >= 0) {
            byte[] expected = AreaFormat.entryStub(stubOff, dataOff, version);
            check(
                    stubOff >= tablesEnd && stubOff + expected.length <= rxSize,
                    "stub at 0x%x outside the code",
                    stubOff);
            check(
                    Arrays.equals(a, stubOff, stubOff + expected.length, expected, 0, expected.length),
                    "stub bytes at 0x%x differ from the contract",
                    stubOff);
        }

        List<Area.Reloc> relocs = new ArrayList<>(nrelocs);
        int lastEnd = -1;
        for (int i = 0; i < nrelocs; i++) {
            int ro = relocsOff + i * AreaFormat.RELOC_SIZE;
            int off = AreaFormat.getInt(a, ro + AreaFormat.R_AREA_OFF);
            int addend = AreaFormat.getInt(a, ro + AreaFormat.R_ADDEND);
            long targetVaddr = AreaFormat.getLong(a, ro + AreaFormat.R_TARGET_VADDR);
            check(off >= tablesEnd && off + 4 <= rxSize, "reloc %d: area_off 0x%x outside the code", i, off);
            check(off >= lastEnd, "reloc %d: area_off 0x%x not ascending / overlapping", i, off);
            lastEnd = off + 4;
            if ((flags & AreaFormat.FLAG_APPLIED) != 0) {
                long value = targetVaddr + addend - (areaVaddr + off);
                check(AreaFormat.getInt(a, off) == value, "reloc %d at 0x%x not applied", i, off);
            }
            relocs.add(new Area.Reloc(off, addend, targetVaddr));
        }
        for (int i = dataOff; i < areaSize; i++) {
            check(a[i] == 0, "data page not zero at 0x%x", i);
        }
        return new Decoded(version, flags, mode, rxSize, dataOff, areaSize, areaVaddr, stubOff, funcs, relocs, env);
    }

    private static boolean disjoint(int aOff, int aSize, int bOff, int bSize) {
        return aSize == 0 || bSize == 0 || aOff + aSize <= bOff || bOff + bSize <= aOff;
    }

    private static void checkTable(String what, int off, long size, int align, int limit) {
        check(
                off >= 0 && off % align == 0 && off + size <= limit,
                "%s table at 0x%x (+0x%x) misaligned or outside the RX part",
                what,
                off,
                size);
    }

    private static void check(boolean ok, String fmt, Object... args) {
        if (!ok) {
            throw new InvalidAreaException("invalid instrumentation area: " + String.format(fmt, args));
        }
    }
}
