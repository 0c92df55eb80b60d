package org.rocprofsys.instrument.area;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocprofsys.instrument.plan.CodeFixup;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.PlannedFunction;

/**
 * Builds the instrumentation area of one module from its {@link InstrumentPlan}
 * (docs/instrumentation.md, "Area format").
 *
 * <p>Layout: header, function table, relocation table, string table (labels), env block,
 * then, 16-byte aligned, the entry stub and one trampoline per function (local function id =
 * index in the function table, pushed by the trampoline); the read+execute part is padded to a page, the read+write data
 * page follows.
 */
public final class AreaBuilder {
    private AreaBuilder() {}

    /** Builds the area with the plan's mode. */
    public static Area build(InstrumentPlan plan, Map<String, String> envDefaults) {
        return build(plan.instrumented(), envDefaults, plan.mode());
    }

    /** Builds the area with an explicit mode (0 trace, 1 sampling, 2 coverage). */
    public static Area build(InstrumentPlan plan, Map<String, String> envDefaults, int mode) {
        return build(plan.instrumented(), envDefaults, mode);
    }

    /**
     * Builds the area for {@code functions} (kept in the given order).
     *
     * @param envDefaults {@code --env} defaults, in iteration order (null or empty: none)
     */
    public static Area build(List<PlannedFunction> functions, Map<String, String> envDefaults, int mode) {
        if (mode < 0 || mode > 2) {
            throw new IllegalArgumentException("mode " + mode + " is not 0 (trace), 1 (sampling) or 2 (coverage)");
        }
        int n = functions.size();
        List<PlannedFunction> byAddress = new ArrayList<>(functions);
        byAddress.sort(java.util.Comparator.comparingLong(f -> f.function().address()));
        for (int i = 1; i < n; i++) {
            PlannedFunction prev = byAddress.get(i - 1);
            PlannedFunction f = byAddress.get(i);
            if (f.function().address() < prev.function().address() + prev.patchLength()) {
                throw new IllegalArgumentException(String.format(
                        "entry of %s at 0x%x lies in the patched bytes of %s at 0x%x",
                        f.function().name(),
                        f.function().address(),
                        prev.function().name(),
                        prev.function().address()));
            }
        }

        // strtab
        ByteArrayOutputStream strtab = new ByteArrayOutputStream();
        int[] nameOff = new int[n];
        for (int i = 0; i < n; i++) {
            PlannedFunction f = functions.get(i);
            byte[] label = f.label().getBytes(StandardCharsets.UTF_8);
            for (byte b : label) {
                if (b == 0) {
                    throw new IllegalArgumentException(
                            "label of " + f.function().name() + " contains NUL");
                }
            }
            nameOff[i] = strtab.size();
            strtab.writeBytes(label);
            strtab.write(0);
        }
        byte[] env = envBlock(envDefaults);

        // relocations: every fix-up of the relocated code, then the jump back
        Emitted[] emitted = new Emitted[n];
        int nrelocs = 0;
        for (int i = 0; i < n; i++) {
            emitted[i] = emit(functions.get(i));
            nrelocs += emitted[i].fixups().size() + 1;
        }
        int funcsOff = AreaFormat.HEADER_SIZE;
        int relocsOff = Math.addExact(funcsOff, Math.multiplyExact(n, AreaFormat.FUNC_SIZE));
        int strtabOff = Math.addExact(relocsOff, Math.multiplyExact(nrelocs, AreaFormat.RELOC_SIZE));
        int end = Math.addExact(strtabOff, strtab.size());
        int envOff = 0;
        if (env != null) {
            envOff = AreaFormat.alignUp(end, 8);
            end = Math.addExact(envOff, env.length);
        }
        int stubOff = AreaFormat.alignUp(end, AreaFormat.CODE_ALIGN);
        int[] trampOff = new int[n];
        int pos = stubOff + AreaFormat.STUB_SIZE;
        for (int i = 0; i < n; i++) {
            pos = AreaFormat.alignUp(pos, AreaFormat.CODE_ALIGN);
            trampOff[i] = pos;
            pos = Math.addExact(
                    pos, AreaFormat.TRAMP_HEAD_SIZE + emitted[i].code().length + AreaFormat.TRAMP_TAIL_SIZE);
        }
        int codeEnd = pos;
        int rxSize = AreaFormat.alignUp(Math.max(codeEnd, 1), AreaFormat.PAGE);
        int dataOff = rxSize;
        int areaSize = Math.addExact(rxSize, AreaFormat.PAGE);

        byte[] a = new byte[areaSize];
        // header
        AreaFormat.putLong(a, AreaFormat.H_MAGIC, AreaFormat.MAGIC);
        AreaFormat.putInt(a, AreaFormat.H_VERSION, AreaFormat.VERSION);
        AreaFormat.putInt(a, AreaFormat.H_FLAGS, 0);
        AreaFormat.putInt(a, AreaFormat.H_NFUNCS, n);
        AreaFormat.putInt(a, AreaFormat.H_NRELOCS, nrelocs);
        AreaFormat.putInt(a, AreaFormat.H_FUNCS_OFF, funcsOff);
        AreaFormat.putInt(a, AreaFormat.H_RELOCS_OFF, relocsOff);
        AreaFormat.putInt(a, AreaFormat.H_STRTAB_OFF, strtabOff);
        AreaFormat.putInt(a, AreaFormat.H_STRTAB_SIZE, strtab.size());
        AreaFormat.putInt(a, AreaFormat.H_ENV_OFF, envOff);
        AreaFormat.putInt(a, AreaFormat.H_MODE, mode);
        AreaFormat.putInt(a, AreaFormat.H_RX_SIZE, rxSize);
        AreaFormat.putInt(a, AreaFormat.H_DATA_OFF, dataOff);
        AreaFormat.putInt(a, AreaFormat.H_AREA_SIZE, areaSize);
        AreaFormat.putLong(a, AreaFormat.H_AREA_VADDR, 0);
        System.arraycopy(strtab.toByteArray(), 0, a, strtabOff, strtab.size());
        if (env != null) {
            System.arraycopy(env, 0, a, envOff, env.length);
        }
        // code: int3 everywhere from the stub to the end of the RX part
        for (int i = stubOff; i < rxSize; i++) {
            a[i] = AreaFormat.INT3;
        }
        System.arraycopy(AreaFormat.entryStub(stubOff, dataOff), 0, a, stubOff, AreaFormat.STUB_SIZE);

        List<Area.Function> funcs = new ArrayList<>(n);
        List<Area.Reloc> relocs = new ArrayList<>(nrelocs);
        for (int i = 0; i < n; i++) {
            PlannedFunction f = functions.get(i);
            byte[] code = emitted[i].code();
            int t = trampOff[i];
            long funcVaddr = f.function().address();

            int fo = funcsOff + i * AreaFormat.FUNC_SIZE;
            AreaFormat.putLong(a, fo + AreaFormat.F_FUNC_VADDR, funcVaddr);
            AreaFormat.putInt(a, fo + AreaFormat.F_TRAMP_OFF, t);
            AreaFormat.putInt(a, fo + AreaFormat.F_NAME_OFF, nameOff[i]);
            AreaFormat.putInt(a, fo + AreaFormat.F_PATCH_LEN, f.patchLength());
            funcs.add(new Area.Function(funcVaddr, t, f.patchLength(), f.label()));

            // push fid; call stub; the landing
            System.arraycopy(AreaFormat.trampolineHead(t, i, stubOff, dataOff), 0, a, t, AreaFormat.TRAMP_HEAD_SIZE);
            int codeOff = t + AreaFormat.TRAMP_HEAD_SIZE;
            System.arraycopy(code, 0, a, codeOff, code.length);
            for (CodeFixup fx : emitted[i].fixups()) {
                relocs.add(new Area.Reloc(codeOff + fx.offset(), fx.addend(), fx.targetVaddr()));
            }
            // jmp f + patch_length
            int jmp = codeOff + code.length;
            a[jmp] = (byte) 0xE9;
            AreaFormat.putInt(a, jmp + 1, 0);
            relocs.add(new Area.Reloc(jmp + 1, -4, funcVaddr + f.patchLength()));
        }
        relocs.sort(java.util.Comparator.comparingInt(Area.Reloc::areaOff));
        for (int i = 0; i < relocs.size(); i++) {
            Area.Reloc r = relocs.get(i);
            int ro = relocsOff + i * AreaFormat.RELOC_SIZE;
            AreaFormat.putInt(a, ro + AreaFormat.R_AREA_OFF, r.areaOff());
            AreaFormat.putInt(a, ro + AreaFormat.R_ADDEND, r.addend());
            AreaFormat.putLong(a, ro + AreaFormat.R_TARGET_VADDR, r.targetVaddr());
        }
        return new Area(a, funcs, relocs, rxSize, stubOff, codeEnd);
    }

    /** The code a trampoline runs in place of the function's first instructions, and its fix-ups. */
    record Emitted(byte[] code, List<CodeFixup> fixups) {}

    /**
     * Sequence that replaces a relocated call (always the last relocated instruction, since it is
     * 5 or more bytes): it pushes the call's original return address, {@code f + patch_len}, so the
     * callee returns to the original code and unwinders (C++ exceptions, backtraces) see the
     * original function's frame, not the area. No register or flag changes.
     */
    static final byte[] PUSH_RETURN = {
        0x48,
        (byte) 0x8D,
        0x64,
        0x24,
        (byte) 0xF8, // lea rsp, [rsp - 8]
        0x50, // push rax
        0x48,
        (byte) 0x8D,
        0x05,
        0,
        0,
        0,
        0, // lea rax, [rip + f + patch_len]   (field at 9)
        0x48,
        (byte) 0x89,
        0x44,
        0x24,
        0x08, // mov [rsp + 8], rax
        0x58, // pop rax
    };

    static final int PUSH_RETURN_FIELD = 9;

    /**
     * Checks the fix-ups of {@code f}'s relocated code and rewrites a trailing {@code call rel32}
     * ({@code E8}) or {@code call [rip + disp32]} ({@code FF 15}) into {@link #PUSH_RETURN} followed
     * by {@code jmp rel32} ({@code E9}) or {@code jmp [rip + disp32]} ({@code FF 25}) to the same
     * target. Other code is kept as it is.
     */
    static Emitted emit(PlannedFunction f) {
        byte[] code = f.relocatedCode();
        List<CodeFixup> fixups = new ArrayList<>(f.fixups());
        fixups.sort(java.util.Comparator.comparingInt(CodeFixup::offset));
        int lastFixupEnd = 0;
        for (CodeFixup fx : fixups) {
            if (fx.offset() < lastFixupEnd || fx.offset() + 4 > code.length) {
                throw new IllegalArgumentException(String.format(
                        "fix-up at offset %d outside the %d relocated bytes of %s, or overlapping another",
                        fx.offset(), code.length, f.function().name()));
            }
            lastFixupEnd = fx.offset() + 4;
        }
        if (fixups.isEmpty() || fixups.getLast().offset() != code.length - 4) {
            return new Emitted(code, fixups);
        }
        Emitted r11 = replaceR11PushReturn(f, code, fixups);
        if (r11 != null) {
            return r11;
        }
        CodeFixup last = fixups.getLast();
        int opLen;
        byte[] jmp;
        if (code.length >= 5 && (code[code.length - 5] & 0xFF) == 0xE8) {
            opLen = 1;
            jmp = new byte[] {(byte) 0xE9};
        } else if (code.length >= 6 && (code[code.length - 6] & 0xFF) == 0xFF && code[code.length - 5] == 0x15) {
            opLen = 2;
            jmp = new byte[] {(byte) 0xFF, 0x25};
        } else {
            return new Emitted(code, fixups);
        }
        int callStart = code.length - 4 - opLen;
        byte[] out = new byte[callStart + PUSH_RETURN.length + jmp.length + 4];
        System.arraycopy(code, 0, out, 0, callStart);
        System.arraycopy(PUSH_RETURN, 0, out, callStart, PUSH_RETURN.length);
        System.arraycopy(jmp, 0, out, callStart + PUSH_RETURN.length, jmp.length);
        List<CodeFixup> outFixups = new ArrayList<>(fixups.subList(0, fixups.size() - 1));
        outFixups.add(
                new CodeFixup(callStart + PUSH_RETURN_FIELD, -4, f.function().address() + f.patchLength()));
        outFixups.add(new CodeFixup(out.length - 4, last.addend(), last.targetVaddr()));
        return new Emitted(out, outFixups);
    }

    /**
     * A planner may already emulate the call as {@code lea r11, [rip + ret]; push r11} followed by
     * {@code jmp rel32} or {@code [prefixes] jmp [rip + disp32]}. That changes r11, which a caller
     * compiled with -fipa-ra may keep live across the call (docs/instrumentation.md), so the
     * {@code lea}/{@code push} pair is replaced by {@link #PUSH_RETURN}, which changes nothing.
     * (The pair cannot come from compiled code: a 7-byte lea alone fills the patch.) Null when the
     * code does not end that way.
     */
    static Emitted replaceR11PushReturn(PlannedFunction f, byte[] code, List<CodeFixup> fixups) {
        int len = code.length;
        int jmp; // start of the jump (after its prefixes, if any)
        if (len >= 5 && (code[len - 5] & 0xFF) == 0xE9) {
            jmp = len - 5;
        } else if (len >= 6 && (code[len - 6] & 0xFF) == 0xFF && code[len - 5] == 0x25) {
            jmp = len - 6;
        } else {
            return null;
        }
        int k = jmp; // skip prefixes (notrack, bnd, segment) back to the push
        while (k > 0 && jmp - k < 3 && isPrefix(code[k - 1])) {
            k--;
        }
        int lea = k - 9;
        if (lea < 0
                || code[k - 2] != 0x41
                || code[k - 1] != 0x53
                || code[lea] != 0x4C
                || (code[lea + 1] & 0xFF) != 0x8D
                || code[lea + 2] != 0x1D) {
            return null;
        }
        CodeFixup ret = null;
        for (CodeFixup x : fixups) {
            if (x.offset() == lea + 3) {
                ret = x;
            }
        }
        if (ret == null || ret.addend() != -4) {
            return null;
        }
        int delta = PUSH_RETURN.length - 9;
        byte[] out = new byte[len + delta];
        System.arraycopy(code, 0, out, 0, lea);
        System.arraycopy(PUSH_RETURN, 0, out, lea, PUSH_RETURN.length);
        System.arraycopy(code, k, out, lea + PUSH_RETURN.length, len - k);
        List<CodeFixup> outFixups = new ArrayList<>();
        for (CodeFixup x : fixups) {
            if (x.offset() < lea) {
                outFixups.add(x);
            } else if (x == ret) {
                outFixups.add(new CodeFixup(lea + PUSH_RETURN_FIELD, -4, x.targetVaddr()));
            } else {
                outFixups.add(new CodeFixup(x.offset() + delta, x.addend(), x.targetVaddr()));
            }
        }
        return new Emitted(out, outFixups);
    }

    private static boolean isPrefix(byte b) {
        int v = b & 0xFF;
        return v == 0x3E || v == 0x2E || v == 0xF2 || v == 0x26 || v == 0x36 || v == 0x64 || v == 0x65;
    }

    /** "VAR=VAL\0VAR=VAL\0\0", or null when there is nothing. */
    static byte[] envBlock(Map<String, String> env) {
        if (env == null || env.isEmpty()) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Map.Entry<String, String> e : env.entrySet()) {
            String k = e.getKey();
            String v = e.getValue() == null ? "" : e.getValue();
            if (k.isEmpty() || k.indexOf('=') >= 0 || k.indexOf('\0') >= 0 || v.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("bad --env entry '" + k + "=" + v + "'");
            }
            out.writeBytes((k + "=" + v).getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        out.write(0);
        return out.toByteArray();
    }
}
