package org.rocprofsys.instrument.area;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.instrument.plan.CodeFixup;
import org.rocprofsys.instrument.plan.FunctionInfo;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.PlannedFunction;

class AreaBuilderTest {
    static final int H = AreaFormat.TRAMP_HEAD_SIZE;

    @TempDir
    Path tmp;

    static PlannedFunction fn(String name, long addr, int patch, String hex, CodeFixup... fixups) {
        FunctionInfo info = new FunctionInfo("/x/a.out", name, name, addr, 64, 10, "global", "default");
        return new PlannedFunction(info, name + "_label", patch, HexFormat.of().parseHex(hex), List.of(fixups));
    }

    static InstrumentPlan plan(int mode, PlannedFunction... fns) {
        return new InstrumentPlan(Path.of("/x/a.out"), true, List.of(), List.of(fns), List.of(), List.of(), mode);
    }

    /** push rbp; mov rbp,rsp; sub rsp,0x10 / mov rax,[rip+X] / call X: one without fix-ups, two with. */
    static InstrumentPlan samplePlan() {
        return plan(
                0,
                fn("plain", 0x1139, 8, "554889e54883ec10"),
                fn("riprel", 0x2000, 7, "488b0500000000", new CodeFixup(3, -4, 0x4010)),
                fn("callfirst", 0x2100, 5, "e800000000", new CodeFixup(1, -4, 0x1234)),
                fn("callgot", 0x2200, 7, "53ff1500000000", new CodeFixup(3, -4, 0x4020)));
    }

    @Test
    void headerTablesAndLabelsRoundTrip() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ROCPROFSYS_A", "1");
        env.put("B", "x=y");
        Area area = AreaBuilder.build(samplePlan(), env, 1);
        byte[] a = area.bytes();
        assertEquals(AreaFormat.MAGIC, AreaFormat.getLong(a, 0));
        assertEquals("RSYSINS1", new String(a, 0, 8, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(AreaFormat.PAGE, area.rxSize());
        assertEquals(2 * AreaFormat.PAGE, a.length);

        AreaReader.Decoded d = AreaReader.read(a);
        assertEquals(1, d.mode());
        assertEquals(0, d.flags());
        assertEquals(0, d.areaVaddr());
        assertEquals(env, d.env());
        assertEquals(area.functions(), d.functions());
        assertEquals(
                List.of("plain_label", "riprel_label", "callfirst_label", "callgot_label"),
                d.functions().stream().map(Area.Function::label).toList());
        assertEquals(
                List.of(0x1139L, 0x2000L, 0x2100L, 0x2200L),
                d.functions().stream().map(Area.Function::funcVaddr).toList());
        assertEquals(
                List.of(8, 7, 5, 7),
                d.functions().stream().map(Area.Function::patchLength).toList());
        // 4 jumps back + 1 fix-up at tramp + H + offset with addend and target kept + 2 per call
        // (the pushed return address and the jump to the callee)
        assertEquals(9, d.relocs().size());
        int t1 = d.functions().get(1).trampOff();
        int t2 = d.functions().get(2).trampOff();
        assertTrue(d.relocs().contains(new Area.Reloc(t1 + H + 3, -4, 0x4010)));
        assertTrue(d.relocs().contains(new Area.Reloc(t2 + H + 9, -4, 0x2105)));
        assertTrue(d.relocs().contains(new Area.Reloc(t2 + H + 20, -4, 0x1234)));
        assertTrue(d.relocs().contains(new Area.Reloc(d.functions().get(0).trampOff() + H + 8 + 1, -4, 0x1139 + 8)));
        assertTrue(d.relocs().contains(new Area.Reloc(t1 + H + 7 + 1, -4, 0x2000 + 7)));
        assertTrue(d.relocs().contains(new Area.Reloc(t2 + H + 24 + 1, -4, 0x2100 + 5)));
        assertEquals(area.relocs(), d.relocs());
    }

    @Test
    void noEnvGivesZeroEnvOff() {
        byte[] a = AreaBuilder.build(samplePlan(), Map.of()).bytes();
        assertEquals(0, AreaFormat.getInt(a, AreaFormat.H_ENV_OFF));
        assertEquals(Map.of(), AreaReader.read(a).env());
    }

    @Test
    void stubAndTrampolinesDisassembleAsTheContractSays() throws Exception {
        Area area = AreaBuilder.build(samplePlan(), Map.of());
        long vma = 0x10000;
        byte[] applied = area.applied(vma);
        AreaReader.Decoded d = AreaReader.read(applied);
        assertTrue(d.applied());
        assertEquals(vma, d.areaVaddr());
        Path bin = tmp.resolve("area.bin");
        Files.write(bin, applied);

        int stub = d.stubOff();
        List<String> stubText = Objdump.objdumpBinary(bin, vma, stub, stub + AreaFormat.STUB_SIZE).stream()
                .map(Objdump.Insn::text)
                .toList();
        String data = "0x" + Long.toHexString(vma + area.dataOff());
        String ctx = "0x" + Long.toHexString(vma + area.dataOff() + 8);
        String pops = "0x" + Long.toHexString(vma + stub + 52);
        assertEquals(
                List.of(
                        "push rax",
                        "push rdi",
                        "push rsi",
                        "push rdx",
                        "push rcx",
                        "push r8",
                        "push r9",
                        "push r10",
                        "push r11",
                        "mov rax,QWORD PTR [rip+X] # " + data,
                        "test rax,rax",
                        "je " + pops,
                        "mov edi,DWORD PTR [rsp+0x50]",
                        "mov rsi,QWORD PTR [rip+X] # " + ctx,
                        "lea rdx,[rsp+0x58]",
                        "mov rcx,QWORD PTR [rsp+0x48]",
                        "add rcx,0x5",
                        "call rax",
                        "pop r11",
                        "pop r10",
                        "pop r9",
                        "pop r8",
                        "pop rcx",
                        "pop rdx",
                        "pop rsi",
                        "pop rdi",
                        "pop rax",
                        "ret 0x8"),
                stubText.stream()
                        .map(s -> s.replaceAll("\\s*<.*>", "").replaceAll("\\[rip[^\\]]*\\]", "[rip+X]"))
                        .toList());

        String stubAddr = "0x" + Long.toHexString(vma + stub);
        String exitFn = "0x" + Long.toHexString(vma + area.dataOff() + 16);
        List<List<String>> expected = List.of(
                List.of("push rbp", "mov rbp,rsp", "sub rsp,0x10", "jmp 0x1141"),
                List.of("mov rax,QWORD PTR [rip+X] # 0x4010", "jmp 0x2007"),
                List.of(
                        "lea rsp,[rsp-0x8]",
                        "push rax",
                        "lea rax,[rip+X] # 0x2105",
                        "mov QWORD PTR [rsp+0x8],rax",
                        "pop rax",
                        "jmp 0x1234",
                        "jmp 0x2105"),
                List.of(
                        "push rbx",
                        "lea rsp,[rsp-0x8]",
                        "push rax",
                        "lea rax,[rip+X] # 0x2207",
                        "mov QWORD PTR [rsp+0x8],rax",
                        "pop rax",
                        "jmp QWORD PTR [rip+X] # 0x4020",
                        "jmp 0x2207"));
        int[] codeLen = {8, 7, 19 + 5, 1 + 19 + 6};
        for (int i = 0; i < 4; i++) {
            Area.Function f = d.functions().get(i);
            // push fid; call the stub; the landing: call past it, jmp to exit_fn, drop its address
            List<String> head = List.of(
                    "push 0x" + Integer.toHexString(i),
                    "call " + stubAddr,
                    "call 0x" + Long.toHexString(vma + f.trampOff() + 21),
                    "jmp QWORD PTR [rip+X] # " + exitFn,
                    "lea rsp,[rsp+0x8]");
            List<String> want = new ArrayList<>(head);
            want.addAll(expected.get(i));
            int len = H + codeLen[i] + 5;
            List<String> text = new ArrayList<>();
            for (Objdump.Insn insn : Objdump.objdumpBinary(bin, vma, f.trampOff(), f.trampOff() + len)) {
                text.add(insn.text().replaceAll("\\s*<.*>", "").replaceAll("\\[rip[^\\]]*\\]", "[rip+X]"));
            }
            assertEquals(want, text, "trampoline " + i);
        }
    }

    @Test
    void codeAfterTheStubIsInt3PaddedAndDataPageZero() {
        Area area = AreaBuilder.build(samplePlan(), Map.of());
        byte[] a = area.bytes();
        AreaReader.Decoded d = AreaReader.read(a);
        Area.Function last = d.functions().getLast();
        for (int i = last.trampOff() + H + 26 + 5; i < area.rxSize(); i++) {
            assertEquals(AreaFormat.INT3, a[i]);
        }
        for (Area.Function f : d.functions()) {
            assertEquals(0, f.trampOff() % AreaFormat.CODE_ALIGN);
        }
    }

    @Test
    void manyFunctionsSpanSeveralPages() {
        List<PlannedFunction> fns = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            fns.add(fn("f" + i, 0x1000 + 0x40L * i, 8, "554889e54883ec10"));
        }
        Area area = AreaBuilder.build(fns, Map.of(), 2);
        AreaReader.Decoded d = AreaReader.read(area.bytes());
        assertEquals(1000, d.functions().size());
        assertEquals(1000, d.relocs().size());
        assertEquals(2, d.mode());
        assertEquals(0, area.rxSize() % AreaFormat.PAGE);
        assertEquals(999, AreaFormat.getInt(area.bytes(), d.functions().get(999).trampOff() + 1));
    }

    @Test
    void appliedRelocationsHoldTheRightValues() {
        Area area = AreaBuilder.build(samplePlan(), Map.of());
        long vma = 0x7000_0000L;
        byte[] a = area.applied(vma);
        for (Area.Reloc r : area.relocs()) {
            assertEquals(r.targetVaddr() + r.addend() - (vma + r.areaOff()), AreaFormat.getInt(a, r.areaOff()));
        }
        // the unapplied bytes hold 0 in every field
        byte[] u = area.bytes();
        for (Area.Reloc r : area.relocs()) {
            assertEquals(0, AreaFormat.getInt(u, r.areaOff()));
        }
        assertThrows(IllegalArgumentException.class, () -> area.applied(0x1_0000_0000L));
    }

    @Test
    void readerRejectsBrokenAreas() {
        byte[] good = AreaBuilder.build(samplePlan(), Map.of()).bytes();
        byte[] magic = good.clone();
        magic[0] ^= 1;
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(magic));
        byte[] fid = good.clone();
        int t = AreaFormat.getInt(good, AreaFormat.HEADER_SIZE + AreaFormat.F_TRAMP_OFF);
        fid[t + 1] = 7;
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(fid));
        byte[] data = good.clone();
        data[data.length - 1] = 1;
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(data));
        byte[] stub = good.clone();
        stub[AreaReader.read(good).stubOff()] = (byte) 0x90;
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(stub));
        byte[] shortA = java.util.Arrays.copyOf(good, good.length - 1);
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(shortA));
        byte[] landing = good.clone();
        landing[t + AreaFormat.TRAMP_LANDING + 2] ^= 1; // the jmp to exit_fn points elsewhere
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(landing));
    }

    /** An area of an earlier build (version 1: no landing, the shorter stub) is still read: rocprof-sys-run takes its --env defaults. */
    @Test
    void versionOneAreasAreStillRead() {
        Map<String, String> env = Map.of("ROCPROFSYS_TRACE", "ON");
        byte[] v2 = AreaBuilder.build(samplePlan(), env).bytes();
        AreaReader.Decoded d2 = AreaReader.read(v2);
        int stub = d2.stubOff();
        byte[] v1 = v2.clone();
        AreaFormat.putInt(v1, AreaFormat.H_VERSION, AreaFormat.VERSION_NO_LANDING);
        byte[] stub1 = AreaFormat.entryStub(stub, d2.dataOff(), AreaFormat.VERSION_NO_LANDING);
        assertEquals(AreaFormat.STUB_SIZE - 9, stub1.length);
        // the version 1 contract: jz +0x12 over mov edi / mov rsi / lea rdx / call rax, then the pops
        assertEquals(0x74, stub1[23] & 0xFF);
        assertEquals(0x12, stub1[24]);
        assertEquals(0xFF, stub1[41] & 0xFF);
        assertEquals(0xD0, stub1[42] & 0xFF);
        assertEquals(0x41, stub1[43] & 0xFF);
        assertEquals(0x5B, stub1[44] & 0xFF);
        System.arraycopy(stub1, 0, v1, stub, stub1.length);
        AreaReader.Decoded d1 = AreaReader.read(v1);
        assertEquals(1, d1.version());
        assertEquals(env, d1.env());
        assertEquals(d2.functions(), d1.functions());
        // the version decides the stub: a version 2 stub in a version 1 area is refused, and the reverse
        byte[] mixed = v2.clone();
        AreaFormat.putInt(mixed, AreaFormat.H_VERSION, AreaFormat.VERSION_NO_LANDING);
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(mixed));
        byte[] reverse = v1.clone();
        AreaFormat.putInt(reverse, AreaFormat.H_VERSION, AreaFormat.VERSION);
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(reverse));
        byte[] v3 = v2.clone();
        AreaFormat.putInt(v3, AreaFormat.H_VERSION, 3);
        assertThrows(AreaReader.InvalidAreaException.class, () -> AreaReader.read(v3));
    }

    @Test
    void badInputsAreRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> AreaBuilder.build(plan(0, fn("f", 0x1000, 5, "e800000000", new CodeFixup(2, -4, 0))), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> AreaBuilder.build(samplePlan(), Map.of("A=B", "c")));
        assertThrows(IllegalArgumentException.class, () -> AreaBuilder.build(samplePlan(), Map.of(), 3));
        // two entries whose patches overlap (aliases planned twice)
        assertThrows(
                IllegalArgumentException.class,
                () -> AreaBuilder.build(
                        plan(0, fn("a", 0x1000, 8, "554889e54883ec10"), fn("b", 0x1004, 5, "4883ec1090")), Map.of()));
    }

    @Test
    void emptyPlanGivesAValidArea() {
        Area area = AreaBuilder.build(plan(0), Map.of());
        assertArrayEquals(
                new int[] {0, 0},
                new int[] {area.functions().size(), area.relocs().size()});
        assertEquals(2 * AreaFormat.PAGE, area.size());
        AreaReader.read(area.bytes());
    }

    @Test
    void plannerCallEmulationThroughR11IsMadeRegisterFree() throws Exception {
        // push rbx; lea r11,[rip+ret]; push r11; jmp target   and   the notrack jmp [rip+x] form
        Area area = AreaBuilder.build(
                plan(
                        0,
                        fn(
                                "direct",
                                0x3000,
                                6,
                                "534c8d1d000000004153e900000000",
                                new CodeFixup(4, -4, 0x3006),
                                new CodeFixup(11, -4, 0x1234)),
                        fn(
                                "indirect",
                                0x3100,
                                7,
                                "534c8d1d0000000041533eff2500000000",
                                new CodeFixup(4, -4, 0x3107),
                                new CodeFixup(13, -4, 0x4020))),
                Map.of());
        long vma = 0x10000;
        Path bin = tmp.resolve("r11.bin");
        Files.write(bin, area.applied(vma));
        AreaReader.Decoded d = AreaReader.read(area.applied(vma));
        String exitFn = "jmp QWORD PTR [rip+X] # 0x" + Long.toHexString(vma + area.dataOff() + 16);
        List<List<String>> expected = List.of(
                trampolineText(0, exitFn, "0x3006", "jmp 0x1234"),
                trampolineText(1, exitFn, "0x3107", "notrack jmp QWORD PTR [rip+X] # 0x4020"));
        for (int i = 0; i < 2; i++) {
            Area.Function f = d.functions().get(i);
            int end = i == 0 ? area.functions().get(1).trampOff() : area.codeEnd();
            List<String> text = new ArrayList<>();
            for (Objdump.Insn insn : Objdump.objdumpBinary(bin, vma, f.trampOff(), end)) {
                String t = insn.text().replaceAll("\\s*<.*>", "").replaceAll("\\[rip[^\\]]*\\]", "[rip+X]");
                if (t.equals("int3")) {
                    continue;
                }
                text.add(t.startsWith("call") ? "call" : t);
            }
            assertEquals(expected.get(i), text, "trampoline " + i);
        }
        assertTrue(
                d.relocs().contains(new Area.Reloc(d.functions().get(0).trampOff() + H + 1 + 9, -4, 0x3006)),
                d.relocs().toString());
        assertTrue(
                d.relocs().contains(new Area.Reloc(d.functions().get(0).trampOff() + H + 1 + 19 + 1, -4, 0x1234)),
                d.relocs().toString());
    }

    /**
     * A trampoline's text (calls and rip offsets folded): function {@code id}'s entry hook, its
     * return address {@code ret} saved for the exit hook, its relocated jump {@code leave}, and the
     * jump back to {@code ret}.
     */
    private static List<String> trampolineText(int id, String exitFn, String ret, String leave) {
        return List.of(
                "push 0x" + id,
                "call",
                "call",
                exitFn,
                "lea rsp,[rsp+0x8]",
                "push rbx",
                "lea rsp,[rsp-0x8]",
                "push rax",
                "lea rax,[rip+X] # " + ret,
                "mov QWORD PTR [rsp+0x8],rax",
                "pop rax",
                leave,
                "jmp " + ret);
    }
}
