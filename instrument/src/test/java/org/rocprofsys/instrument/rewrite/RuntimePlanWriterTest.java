package org.rocprofsys.instrument.rewrite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.instrument.area.Area;
import org.rocprofsys.instrument.area.AreaBuilder;
import org.rocprofsys.instrument.plan.FunctionInfo;
import org.rocprofsys.instrument.plan.PlannedFunction;

class RuntimePlanWriterTest {
    @TempDir
    Path tmp;

    static Area area(String name, long addr) {
        FunctionInfo info = new FunctionInfo("/m", name, name, addr, 32, 8, "global", "default");
        byte[] code = HexFormat.of().parseHex("554889e54883ec10");
        return AreaBuilder.build(List.of(new PlannedFunction(info, name, 8, code, List.of())), Map.of(), 0);
    }

    @Test
    void layoutIsThePlanFileOfTheContract() {
        Area a1 = area("f", 0x1139);
        Area a2 = area("g", 0x2000);
        String p1 = "/usr/lib/libx.so.1"; // 18 bytes: padded to 24
        String p2 = "/opt/app/bin/app1"; // 17 bytes: padded to 24
        byte[] plan = RuntimePlanWriter.encode(
                List.of(new RuntimePlanWriter.Module(p1, a1.bytes()), new RuntimePlanWriter.Module(p2, a2.bytes())));
        ByteBuffer b = ByteBuffer.wrap(plan).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("RSYSPLN1", new String(plan, 0, 8, StandardCharsets.US_ASCII));
        assertEquals(0x314e4c5053595352L, b.getLong(0));
        assertEquals(1, b.getInt(8));
        assertEquals(2, b.getInt(12));
        assertEquals(18, b.getInt(16));
        assertEquals(a1.size(), b.getInt(20));
        assertEquals(p1, new String(plan, 24, 18, StandardCharsets.UTF_8));
        assertEquals(0, plan[42]);
        assertArrayEquals(a1.bytes(), java.util.Arrays.copyOfRange(plan, 48, 48 + a1.size()));
        int m2 = 48 + a1.size();
        assertEquals(17, b.getInt(m2));
        assertEquals(a2.size(), b.getInt(m2 + 4));
        assertEquals(p2, new String(plan, m2 + 8, 17, StandardCharsets.UTF_8));
        assertArrayEquals(a2.bytes(), java.util.Arrays.copyOfRange(plan, m2 + 32, m2 + 32 + a2.size()));
        assertEquals(m2 + 32 + a2.size(), plan.length);
        assertEquals(0, plan.length % 8);

        List<RuntimePlanWriter.Module> back = RuntimePlanWriter.decode(plan);
        assertEquals(
                List.of(p1, p2),
                back.stream().map(RuntimePlanWriter.Module::path).toList());
        assertArrayEquals(a2.bytes(), back.get(1).area());
    }

    @Test
    void appliedAreasAreRefused() {
        Area a = area("f", 0x1139);
        assertThrows(IllegalArgumentException.class, () -> new RuntimePlanWriter.Module("/m", a.applied(0x5000)));
        assertThrows(IllegalArgumentException.class, () -> new RuntimePlanWriter.Module("", a.bytes()));
    }

    @Test
    void writeResolvesRealPathsAndReplacesAtomically() throws Exception {
        Path lib = Files.writeString(tmp.resolve("lib.so"), "x");
        Path link = tmp.resolve("link.so");
        Files.createSymbolicLink(link, lib);
        Path file = tmp.resolve("plan.bin");
        Files.writeString(file, "old");
        RuntimePlanWriter.write(file, List.of(RuntimePlanWriter.Module.of(link, area("f", 0x1139))));
        List<RuntimePlanWriter.Module> back = RuntimePlanWriter.decode(Files.readAllBytes(file));
        assertEquals(lib.toRealPath().toString(), back.getFirst().path());
        try (var files = Files.list(tmp)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")));
        }
        RewriteException e = assertThrows(
                RewriteException.class, () -> RuntimePlanWriter.write(tmp.resolve("no/dir/plan"), List.of()));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertThrows(
                RewriteException.class, () -> RuntimePlanWriter.Module.of(tmp.resolve("missing.so"), area("f", 1)));
    }

    @Test
    void emptyPlanIsJustTheHeader() {
        byte[] plan = RuntimePlanWriter.encode(List.of());
        assertEquals(16, plan.length);
        assertEquals(List.of(), RuntimePlanWriter.decode(plan));
    }
}
