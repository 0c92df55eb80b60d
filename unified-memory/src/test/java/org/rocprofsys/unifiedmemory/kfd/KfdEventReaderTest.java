package org.rocprofsys.unifiedmemory.kfd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.ffm.LibC;

/**
 * The reader on non-blocking pipes standing in for KFD's event descriptors (which also answer
 * EAGAIN when empty): lines split across writes and spread over two descriptors all arrive whole.
 */
class KfdEventReaderTest {
    @Test
    void readsWholeLinesFromEveryDescriptor() throws Exception {
        int[] gpu0 = LibC.pipeNonBlocking();
        int[] gpu1 = LibC.pipeNonBlocking();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        KfdEventReader reader = new KfdEventReader(new int[] {gpu0[0], gpu1[0]}, lines::add);
        reader.start();
        List<String> session = KfdPairingTest.SESSION;
        StringBuilder all = new StringBuilder();
        session.forEach(l -> all.append(l).append('\n'));
        String text = all.toString();
        // the first half through gpu0 in pieces of 7 bytes (cutting lines), the rest through gpu1 at once
        int half = text.indexOf('\n', text.length() / 2) + 1;
        for (int i = 0; i < half; i += 7) {
            write(gpu0[1], text.substring(i, Math.min(half, i + 7)));
            Thread.sleep(1);
        }
        write(gpu1[1], text.substring(half));
        // the reader's thread gets every line however busy the machine is: wait for them, not a time
        for (int i = 0; i < 12_000 && lines.size() < session.size(); i++) {
            Thread.sleep(5);
        }
        reader.close();
        LibC.close(gpu0[1]);
        LibC.close(gpu1[1]);
        assertEquals(session, lines);
    }

    private static void write(int fd, String s) {
        try (Arena a = Arena.ofConfined()) {
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            var seg = a.allocate(b.length);
            seg.copyFrom(java.lang.foreign.MemorySegment.ofArray(b));
            assertEquals(b.length, LibC.write(fd, seg).value());
        }
    }

    @Test
    void withoutKfdOneNoticeAndNothingElse(@TempDir Path dir) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        KfdEvents source = new KfdEvents(new PrintStream(err, true), dir.resolve("kfd"), dir.resolve("nodes"));
        List<TraceEvent> events = new ArrayList<>();
        source.start(1, events::add);
        source.stop(0);
        String log = err.toString();
        assertTrue(events.isEmpty());
        assertEquals(1, log.lines().count(), log);
        assertTrue(log.contains("is absent (no AMD GPU driver)"), log);
    }

    @Test
    void topologyListsOnlyGpuNodes(@TempDir Path nodes) throws Exception {
        node(nodes, 0, "0", "");
        node(nodes, 1, "36394", "gfx942");
        node(nodes, 2, "11234", "gfx942");
        assertEquals(
                List.of(new KfdTopology.Gpu(1, 36394, "gfx942"), new KfdTopology.Gpu(2, 11234, "gfx942")),
                KfdTopology.gpus(nodes));
        assertTrue(KfdTopology.gpus(nodes.resolve("absent")).isEmpty());
    }

    private static void node(Path nodes, int n, String gpuId, String name) throws Exception {
        Path dir = java.nio.file.Files.createDirectories(nodes.resolve(Integer.toString(n)));
        java.nio.file.Files.writeString(dir.resolve("gpu_id"), gpuId + "\n");
        java.nio.file.Files.writeString(dir.resolve("name"), name + "\n");
    }

    @Test
    void theIoctlNumberAndMaskAreTheKernels() {
        // _IOWR('K', 0x1F, 8 bytes) as uapi/linux/kfd_ioctl.h defines AMDKFD_IOC_SMI_EVENTS
        assertEquals(0xC0084B1FL, KfdSmiEvents.AMDKFD_IOC_SMI_EVENTS);
        // events 5..11, 14 and ALL_PROCESS (64): bits 4..10, 13, 63
        assertEquals(0x80000000000027F0L, KfdSmiEvents.MASK);
    }
}
