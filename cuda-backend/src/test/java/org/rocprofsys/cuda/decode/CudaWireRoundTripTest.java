package org.rocprofsys.cuda.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.wire.RingFile;
import org.rocprofsys.core.wire.WireFormat;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.Make;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * GPU record round trip, Java side: src/test/c/gpu_wire_writer.c writes every CUDA record type
 * through the real agent's {@code rocprofsys_gpu_record} (the agent built from agent/src/main/c
 * and preloaded) and prints what it wrote; the ring file is read back with core's
 * {@link RingFile} and {@link CudaWireRecord#parse}, and every value must match, raw bytes and
 * strings included, in ring order. Also checks the constants WireFormat shares with
 * rocprofsys_wire.h, and that the backend's exit flush lands before the main thread's end.
 */
class CudaWireRoundTripTest {
    @TempDir
    static Path build;

    private static Path agent;
    private static Path writer;

    @TempDir
    Path session;

    @BeforeAll
    static void buildWriter() throws Exception {
        Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
        Path agentSrc = root.resolve("agent/src/main/c");
        Make.build(agentSrc, "OUT=" + build, "all");
        agent = build.resolve("librocprof-sys.so");
        writer = build.resolve("gpu_wire_writer");
        NativeCompiler.c()
                .compile(
                        writer,
                        List.of(
                                "-std=c11",
                                "-Wall",
                                "-Wextra",
                                "-Werror",
                                "-D_GNU_SOURCE",
                                "-I" + agentSrc,
                                "-pthread",
                                "-o",
                                writer.toString(),
                                root.resolve("cuda-backend/src/test/c/gpu_wire_writer.c")
                                        .toString(),
                                "-ldl"));
    }

    private static String run(List<String> cmd, Map<String, String> env) throws Exception {
        ProcessResult r = Command.of(cmd).env(env).run();
        assertEquals(0, r.exitCode(), cmd + ":\n" + r.all());
        return r.stdout();
    }

    @Test
    void everyCudaRecordTypeRoundTrips() throws Exception {
        String out = run(
                List.of(writer.toString()),
                Map.of(
                        "LD_PRELOAD",
                        agent.toString(),
                        "ROCPROFSYS_SESSION_DIR",
                        session.toString(),
                        "ROCPROFSYS_AGENT_CLOCK",
                        "monotonic"));
        Map<String, String> x = new LinkedHashMap<>();
        out.lines().forEach(l -> x.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        assertEquals("1", x.get("active"));
        Path file;
        try (Stream<Path> s = Files.list(session)) {
            file = s.filter(p -> p.toString().endsWith(".ring")).findFirst().orElseThrow();
        }
        try (RingFile f = RingFile.open(file)) {
            assertEquals(WireFormat.STATE_EXITED, f.state());
            RingFile.Ring main = f.rings().stream()
                    .filter(r -> r.tid() == f.pid())
                    .findFirst()
                    .orElseThrow();
            List<Rec> mainRecs = records(main);
            List<CudaWireRecord> cuda = new ArrayList<>();
            for (Rec r : mainRecs) {
                if (CudaWireRecord.isCuda(r.type())) {
                    cuda.add(CudaWireRecord.parse(r.bytes()));
                }
            }
            int i = 0;
            for (; x.containsKey("rec." + i); i++) {
                check(x.get("rec." + i), cuda.get(i), x);
            }
            assertEquals(14, i, "records the writer reported");
            // the flush registered with rocprofsys_gpu_set_flush ran at exit, before THREAD_END
            check(x.get("flush.rec"), cuda.get(i), x);
            assertEquals(i + 1, cuda.size());
            int flushAt = -1;
            int endAt = -1;
            for (int k = 0; k < mainRecs.size(); k++) {
                if (mainRecs.get(k).type() == CudaWireRecord.REC_CUDA_API_NAME) {
                    flushAt = k;
                }
                if (mainRecs.get(k).type() == WireFormat.REC_THREAD_END) {
                    endAt = k;
                }
            }
            assertTrue(flushAt >= 0 && flushAt < endAt, "flush record " + flushAt + " before THREAD_END " + endAt);
            // the second thread's record is on its own ring
            RingFile.Ring other = f.rings().stream()
                    .filter(r -> r.tid() != f.pid())
                    .findFirst()
                    .orElseThrow();
            List<CudaWireRecord> otherCuda = records(other).stream()
                    .filter(r -> CudaWireRecord.isCuda(r.type()))
                    .map(r -> CudaWireRecord.parse(r.bytes()))
                    .toList();
            assertEquals(1, otherCuda.size());
            check(x.get("thread.rec.0"), otherCuda.get(0), x);
        }
    }

    private record Rec(int type, MemorySegment bytes) {}

    private static List<Rec> records(RingFile.Ring ring) {
        List<Rec> l = new ArrayList<>();
        Fixture.forEachRecord(ring, (type, bytes) -> {
            assertEquals(0, bytes.byteSize() % 8, "records are 8-aligned");
            l.add(new Rec(type, bytes));
        });
        return l;
    }

    private static void check(String expected, CudaWireRecord got, Map<String, String> x) {
        String kind = expected.substring(0, expected.indexOf(' '));
        int fields = switch (kind) { // the last field (a name, strings, a message) may hold spaces
            case "API_NAME" -> 4;
            case "ACTIVITY" -> 5;
            case "API_ARGS" -> 8;
            case "COUNTER_NAMES" -> 5;
            case "COUNTERS" -> 10;
            default -> 6;
        };
        String[] w = expected.split(" ", fields);
        switch (w[0]) {
            case "API_NAME" ->
                assertEquals(new CudaWireRecord.ApiName(Integer.parseInt(w[1]), Integer.parseInt(w[2]), w[3]), got);
            case "API" ->
                assertEquals(
                        new CudaWireRecord.ApiCall(
                                Integer.parseInt(w[1]),
                                Integer.parseInt(w[2]),
                                Long.parseUnsignedLong(w[3]),
                                Long.parseUnsignedLong(w[4]),
                                Long.parseLong(w[5])),
                        got);
            case "API_ARGS" -> {
                CudaWireRecord.ApiCall c = assertInstanceOf(CudaWireRecord.ApiCall.class, got);
                assertEquals(Integer.parseInt(w[1]), c.domain());
                assertEquals(Integer.parseInt(w[2]), c.cbid());
                assertEquals(7000, c.beginNs());
                assertEquals(8000, c.endNs());
                assertEquals(Long.parseLong(w[3]), c.correlationId());
                long stream = Long.parseLong(w[4]);
                assertEquals(stream == 0xffffffffL ? -1 : stream, c.args().streamId());
                assertEquals(w[5], HexFormat.of().formatHex(c.args().params().toArray(JAVA_BYTE)));
                Long output = Long.parseUnsignedLong(w[6]) == 0 ? null : Long.parseUnsignedLong(w[6]);
                assertEquals(output, c.args().output());
            }
            case "ACTIVITY" -> {
                CudaWireRecord.Activity a = assertInstanceOf(CudaWireRecord.Activity.class, got);
                assertEquals(Integer.parseInt(w[1]), a.kind());
                assertEquals(Long.parseLong(w[2]), a.raw().byteSize());
                assertEquals(w[3], HexFormat.of().formatHex(a.raw().toArray(JAVA_BYTE)));
                String[] strings = w[4].split("\\|", -1);
                List<String> want = new ArrayList<>(List.of(strings));
                // the writer prints two slots; the record holds only the strings it was given
                while (want.size() > a.strings().size()
                        && want.get(want.size() - 1).isEmpty()) {
                    want.remove(want.size() - 1);
                }
                assertEquals(want, a.strings());
            }
            case "NVTX" ->
                assertEquals(
                        new CudaWireRecord.Nvtx(
                                Integer.parseInt(w[1]),
                                Long.parseLong(w[2]),
                                Long.parseUnsignedLong(w[3]),
                                Long.parseUnsignedLong(w[4]),
                                w[5]),
                        got);
            case "NVTX_CUT" -> {
                CudaWireRecord.Nvtx n = assertInstanceOf(CudaWireRecord.Nvtx.class, got);
                assertEquals(new CudaWireRecord.Nvtx(1, 1, 2, 3, n.message()), n);
                int cut = Integer.parseInt(x.get("cut"));
                assertEquals(cut, n.message().getBytes(StandardCharsets.UTF_8).length);
                assertEquals("\u20ac".repeat(cut / 3), n.message());
            }
            case "COUNTER_NAMES" ->
                assertEquals(
                        new CudaWireRecord.CounterNames(
                                Integer.parseInt(w[1]), w[3], Integer.parseInt(w[2]), List.of(w[4].split("\\|"))),
                        got);
            case "COUNTERS" -> {
                CudaWireRecord.Counters c = assertInstanceOf(CudaWireRecord.Counters.class, got);
                assertEquals(Integer.parseInt(w[1]), c.device());
                assertEquals(Long.parseLong(w[2]), c.launchNs());
                assertEquals(Long.parseLong(w[3]), c.correlationId());
                assertEquals(Integer.parseInt(w[4]), c.range());
                assertEquals(w[5].equals("0"), c.matched());
                assertEquals(
                        List.of(Double.parseDouble(w[6]), Double.parseDouble(w[7])),
                        List.of(c.values()[0], c.values()[1]));
                assertEquals(w.length > 8 ? w[8] : "", c.rangeName());
            }
            default -> throw new AssertionError("unknown expectation " + expected);
        }
    }

    @Test
    void wireConstantsMatchTheHeader() throws Exception {
        Path header = Path.of(System.getProperty("user.dir")).resolve("../agent/src/main/c/rocprofsys_wire.h");
        String h = Files.readString(header);
        assertTrue(h.contains("#define RSYS_REC_CUDA_API_NAME " + CudaWireRecord.REC_CUDA_API_NAME + "u"));
        assertTrue(h.contains("#define RSYS_REC_CUDA_API " + CudaWireRecord.REC_CUDA_API + "u"));
        assertTrue(h.contains("#define RSYS_REC_CUDA_ACTIVITY " + CudaWireRecord.REC_CUDA_ACTIVITY + "u"));
        assertTrue(h.contains("#define RSYS_REC_CUDA_NVTX " + CudaWireRecord.REC_CUDA_NVTX + "u"));
        assertTrue(h.contains("#define RSYS_REC_CUDA_COUNTER_NAMES " + CudaWireRecord.REC_CUDA_COUNTER_NAMES + "u"));
        assertTrue(h.contains("#define RSYS_REC_CUDA_COUNTERS " + CudaWireRecord.REC_CUDA_COUNTERS + "u"));
        assertTrue(h.contains(" " + WireFormat.GPU_RECORD_SYMBOL + "("));
    }
}
