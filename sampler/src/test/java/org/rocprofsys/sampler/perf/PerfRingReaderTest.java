package org.rocprofsys.sampler.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ring decoding on a hand-made mapping: metadata page + 1 KiB data area, records that wrap. */
class PerfRingReaderTest {
    static final int PAGE = 4096;
    static final int DATA = 1024;
    static final long REGS =
            (1L << PerfEventAttr.X86_REG_BP) | (1L << PerfEventAttr.X86_REG_SP) | (1L << PerfEventAttr.X86_REG_IP);
    static final PerfEventAttr ATTR = PerfEventAttr.clockSampling(false, 1000).withUserStack(REGS, 64);

    /** Little-endian record builder; {@link #bytes()} patches the header's size. */
    static final class Rec {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Rec(int type, int misc) {
            u32(type);
            u16(misc);
            u16(0);
        }

        Rec u16(int v) {
            out.write(v & 0xff);
            out.write((v >>> 8) & 0xff);
            return this;
        }

        Rec u32(int v) {
            return u16(v & 0xffff).u16(v >>> 16);
        }

        Rec u64(long v) {
            return u32((int) v).u32((int) (v >>> 32));
        }

        Rec bytes(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        /** NUL-terminated, padded to 8. */
        Rec str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.writeBytes(b);
            int n = b.length + 1;
            int pad = (8 - n % 8) % 8;
            for (int i = 0; i < n - b.length + pad; i++) {
                out.write(0);
            }
            return this;
        }

        /** sample_id_all trailer for SAMPLE_DEFAULT: pid/tid, time, cpu/res. */
        Rec id(int pid, int tid, long time, int cpu) {
            return u32(pid).u32(tid).u64(time).u32(cpu).u32(0);
        }

        byte[] bytes() {
            byte[] b = out.toByteArray();
            assertEquals(0, b.length % 8, "records are 8-byte multiples");
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(6, (short) b.length);
            return b;
        }
    }

    static final class Ring {
        final Arena arena = Arena.ofConfined();
        final MemorySegment map = arena.allocate(PAGE + DATA, PAGE);
        long head;

        Ring(long start) {
            map.set(ValueLayout.JAVA_LONG, PerfRingReader.OFF_DATA_OFFSET, PAGE);
            map.set(ValueLayout.JAVA_LONG, PerfRingReader.OFF_DATA_SIZE, DATA);
            map.set(ValueLayout.JAVA_LONG, PerfRingReader.OFF_DATA_TAIL, start);
            head = start;
        }

        long write(byte[] rec) {
            long at = head;
            for (int i = 0; i < rec.length; i++) {
                map.set(ValueLayout.JAVA_BYTE, PAGE + ((head + i) % DATA), rec[i]);
            }
            head += rec.length;
            return at;
        }

        void publish() {
            map.set(ValueLayout.JAVA_LONG, PerfRingReader.OFF_DATA_HEAD, head);
        }

        long tail() {
            return map.get(ValueLayout.JAVA_LONG, PerfRingReader.OFF_DATA_TAIL);
        }
    }

    static byte[] sample(long time, int pid, int tid, long ip, long[] chain, long[] regs, byte[] stack, long dyn) {
        Rec r = new Rec(PerfRingReader.RECORD_SAMPLE, PerfRecord.CPUMODE_USER);
        r.u64(ip).u32(pid).u32(tid).u64(time).u32(1).u32(0).u64(1_000_000);
        r.u64(chain.length);
        for (long c : chain) {
            r.u64(c);
        }
        r.u64(2); // PERF_SAMPLE_REGS_ABI_64
        for (long v : regs) {
            r.u64(v);
        }
        r.u64(stack.length).bytes(stack).u64(dyn);
        return r.bytes();
    }

    @Test
    void decodesEveryTypeAndAWrappedSample() {
        Ring ring = new Ring(DATA - 128); // 128 bytes before the end of the data area
        byte[] comm = new Rec(PerfRingReader.RECORD_COMM, PerfRingReader.MISC_COMM_EXEC)
                .u32(100)
                .u32(100)
                .str("burn")
                .id(100, 100, 5_000, 0)
                .bytes();
        long[] chain = {
            PerfRingReader.CONTEXT_KERNEL,
            0xffffffff81000010L,
            0xffffffff81000020L,
            PerfRingReader.CONTEXT_USER,
            0x401000,
            0x401100,
            0x401200
        };
        byte[] stack = new byte[64];
        for (int i = 0; i < stack.length; i++) {
            stack[i] = (byte) i;
        }
        byte[] smp = sample(6_000, 100, 101, 0x401000, chain, new long[] {0x7ff0, 0x7fe0, 0x401000}, stack, 40);
        long commAt = ring.write(comm);
        long smpAt = ring.write(smp);
        assertEquals(DATA - 128, commAt);
        assertTrue(smpAt % DATA + smp.length > DATA, "the sample must cross the end of the data area");
        ring.write(new Rec(PerfRingReader.RECORD_MMAP2, 0)
                .u32(100)
                .u32(100)
                .u64(0x400000)
                .u64(0x2000)
                .u64(0x1000)
                .u32(8)
                .u32(1)
                .u64(4242)
                .u64(7)
                .u32(5)
                .u32(2)
                .str("/tmp/burn")
                .id(100, 100, 5_500, 1)
                .bytes());
        ring.write(new Rec(PerfRingReader.RECORD_FORK, 0)
                .u32(100)
                .u32(100)
                .u32(101)
                .u32(100)
                .u64(5_600)
                .id(100, 101, 5_600, 1)
                .bytes());
        ring.write(new Rec(14 /* PERF_RECORD_SWITCH: not modelled */, 0)
                .id(100, 101, 5_650, 1)
                .bytes());
        ring.write(new Rec(PerfRingReader.RECORD_LOST, 0)
                .u64(9)
                .u64(3)
                .id(100, 100, 5_700, 0)
                .bytes());
        ring.write(new Rec(PerfRingReader.RECORD_LOST_SAMPLES, 0)
                .u64(2)
                .id(100, 100, 5_710, 0)
                .bytes());
        ring.write(new Rec(PerfRingReader.RECORD_THROTTLE, 0)
                .u64(5_800)
                .u64(9)
                .u64(9)
                .id(100, 100, 5_800, 0)
                .bytes());
        ring.publish();

        PerfRingReader reader = new PerfRingReader(ring.map, ATTR, PAGE);
        assertTrue(reader.pending() > 0);
        List<PerfRecord> got = new ArrayList<>();
        assertEquals(7, reader.drain(got::add));
        assertEquals(ring.head, ring.tail(), "data_tail released up to data_head");
        assertEquals(0, reader.pending());
        assertEquals(1, reader.skippedRecords());
        assertEquals(5, reader.lostRecords());
        assertEquals(1, reader.samples());
        assertEquals(1, reader.throttles());
        assertTrue(reader.wrappedRecords() >= 1);

        PerfRecord.Comm c = assertInstanceOf(PerfRecord.Comm.class, got.get(0));
        assertEquals(new PerfRecord.Comm(5_000, 100, 100, "burn", true), c);

        PerfRecord.Sample s = assertInstanceOf(PerfRecord.Sample.class, got.get(1));
        assertEquals(6_000, s.time());
        assertEquals(100, s.pid());
        assertEquals(101, s.tid());
        assertEquals(1, s.cpu());
        assertEquals(0x401000, s.ip());
        assertEquals(1_000_000, s.period());
        assertTrue(s.userMode());
        assertArrayEquals(new long[] {0xffffffff81000010L, 0xffffffff81000020L}, s.kernelFrames());
        assertArrayEquals(new long[] {0x401000, 0x401100, 0x401200}, s.userFrames());
        assertEquals(2, s.userRegsAbi());
        assertArrayEquals(new long[] {0x7ff0, 0x7fe0, 0x401000}, s.userRegs());
        assertEquals(40, s.userStack().length, "trimmed to dyn_size");
        assertEquals(39, s.userStack()[39]);

        PerfRecord.Mmap m = assertInstanceOf(PerfRecord.Mmap.class, got.get(2));
        assertEquals("/tmp/burn", m.filename());
        assertTrue(m.mmap2());
        assertFalse(m.data());
        assertEquals(0x400000, m.address());
        assertEquals(0x402000, m.end());
        assertEquals(0x1000, m.pageOffset());
        assertEquals(8, m.major());
        assertEquals(1, m.minor());
        assertEquals(4242, m.inode());
        assertEquals(5, m.prot());
        assertEquals(2, m.flags());
        assertEquals(5_500, m.time());

        assertEquals(new PerfRecord.Fork(5_600, 100, 100, 101, 100), got.get(3));
        assertTrue(((PerfRecord.Fork) got.get(3)).isThread());
        assertEquals(new PerfRecord.Lost(5_700, 9, 3), got.get(4));
        assertEquals(new PerfRecord.Lost(5_710, -1, 2), got.get(5));
        assertEquals(new PerfRecord.Throttle(5_800, 9, true), got.get(6));

        // A second batch continues from the released tail, again across the wrap point.
        long before = ring.head;
        ring.write(new Rec(PerfRingReader.RECORD_EXIT, 0)
                .u32(100)
                .u32(1)
                .u32(100)
                .u32(1)
                .u64(9_000)
                .id(100, 100, 9_000, 0)
                .bytes());
        byte[] kernelSample = sample(
                9_100,
                100,
                100,
                0xffffffff81000010L,
                new long[] {PerfRingReader.CONTEXT_KERNEL, 0xffffffff81000010L},
                new long[] {0, 0, 0},
                stack,
                64);
        ring.write(kernelSample);
        ring.publish();
        got.clear();
        assertEquals(2, reader.drain(got::add));
        assertTrue(before > DATA);
        assertEquals(new PerfRecord.Exit(9_000, 100, 1, 100, 1), got.get(0));
        PerfRecord.Sample k = (PerfRecord.Sample) got.get(1);
        assertEquals(1, k.kernelFrames().length);
        assertEquals(0, k.userFrames().length);
        assertEquals(64, k.userStack().length);
        assertEquals(ring.head, ring.tail());
    }

    /** A ring holding a COMM, a sample that crosses the end of the data area, and an EXIT. */
    private static Ring wrappedRing() {
        Ring ring = new Ring(DATA - 64);
        ring.write(new Rec(PerfRingReader.RECORD_COMM, 0)
                .u32(7)
                .u32(7)
                .str("w")
                .id(7, 7, 10, 0)
                .bytes());
        byte[] stack = new byte[64];
        java.util.Arrays.fill(stack, (byte) 0x5a);
        ring.write(sample(20, 7, 8, 0x401000, new long[] {0x401000, 0x402000}, new long[] {1, 2, 3}, stack, 48));
        ring.write(new Rec(PerfRingReader.RECORD_EXIT, 0)
                .u32(7)
                .u32(1)
                .u32(8)
                .u32(7)
                .u64(30)
                .id(7, 8, 30, 0)
                .bytes());
        ring.publish();
        return ring;
    }

    private static String describe(PerfRecord r) {
        return r instanceof PerfRecord.Sample s
                ? "Sample " + s.time() + " " + s.pid() + "/" + s.tid() + " " + java.util.Arrays.toString(s.userFrames())
                        + " " + java.util.Arrays.toString(s.userRegs()) + " " + java.util.Arrays.toString(s.userStack())
                : r.toString();
    }

    /** A copy taken now and decoded later (on another thread) gives what a drain gives, and frees the ring. */
    @Test
    void copiesDecodeAsDrainDoes() {
        Ring drained = wrappedRing();
        List<String> expected = new ArrayList<>();
        new PerfRingReader(drained.map, ATTR, PAGE).drain(r -> expected.add(describe(r)));
        assertEquals(3, expected.size());

        Ring copied = wrappedRing();
        PerfRingReader reader = new PerfRingReader(copied.map, ATTR, PAGE);
        try (RingCopies copies = new RingCopies(DATA)) {
            MemorySegment copy = reader.copyPending(copies::room);
            assertEquals(copied.head, copied.tail(), "the copy hands the space back at once");
            assertEquals(0, reader.pending());
            assertEquals(0, reader.copyPending(copies::room).byteSize(), "nothing pending: no copy");
            for (long i = copied.tail() - 8; i < copied.tail(); i++) {
                copied.map.set(ValueLayout.JAVA_BYTE, PAGE + (i % DATA), (byte) 0xff); // the kernel reuses it
            }
            List<String> got = new ArrayList<>();
            assertEquals(3, reader.decodeCopy(copy, r -> got.add(describe(r))));
            assertEquals(expected, got);
            assertEquals(1, reader.samples());
            copies.consumed();
        }
    }

    /**
     * PERF_SAMPLE_READ with PERF_FORMAT_GROUP | PERF_FORMAT_ID sits between PERIOD and CALLCHAIN:
     * {@code nr}, then {value, id} per event, leader first; what follows still decodes.
     */
    @Test
    void decodesTheGroupReadOfASampleBetweenPeriodAndCallchain() {
        PerfEventAttr attr = ATTR.withGroupRead();
        assertEquals(PerfEventAttr.FORMAT_GROUP | PerfEventAttr.FORMAT_ID, attr.readFormat());
        Rec r = new Rec(PerfRingReader.RECORD_SAMPLE, PerfRecord.CPUMODE_USER);
        r.u64(0x401000).u32(100).u32(101).u64(7_000).u32(3).u32(0).u64(1_000_000);
        r.u64(3).u64(2_000_000).u64(71).u64(1_999_000).u64(72).u64(52).u64(73); // nr, {value, id} x 3
        r.u64(2).u64(0x401000).u64(0x401100); // callchain
        r.u64(2).u64(0x7ff0).u64(0x7fe0).u64(0x401000); // regs
        byte[] stack = new byte[64];
        stack[0] = 42;
        r.u64(stack.length).bytes(stack).u64(16);
        Ring ring = new Ring(0);
        ring.write(r.bytes());
        ring.publish();
        List<PerfRecord> got = new ArrayList<>();
        assertEquals(1, new PerfRingReader(ring.map, attr, PAGE).drain(got::add));
        PerfRecord.Sample s = assertInstanceOf(PerfRecord.Sample.class, got.getFirst());
        assertArrayEquals(new long[] {2_000_000, 1_999_000, 52}, s.read().values());
        assertArrayEquals(new long[] {71, 72, 73}, s.read().ids());
        assertEquals(3, s.cpu());
        assertEquals(1_000_000, s.period());
        assertArrayEquals(new long[] {0x401000, 0x401100}, s.userFrames());
        assertArrayEquals(new long[] {0x7ff0, 0x7fe0, 0x401000}, s.userRegs());
        assertEquals(16, s.userStack().length);
        assertEquals(42, s.userStack()[0]);

        // one event, with both times and an id: {value, enabled, running, id}
        PerfEventAttr single = new PerfEventAttr(
                PerfEventAttr.TYPE_SOFTWARE,
                PerfEventAttr.SW_CPU_CLOCK,
                1000,
                PerfEventAttr.SAMPLE_TID | PerfEventAttr.SAMPLE_READ | PerfEventAttr.SAMPLE_PERIOD,
                PerfEventAttr.FORMAT_TOTAL_TIME_ENABLED
                        | PerfEventAttr.FORMAT_TOTAL_TIME_RUNNING
                        | PerfEventAttr.FORMAT_ID,
                0,
                1,
                0,
                0,
                0,
                0);
        Rec one = new Rec(PerfRingReader.RECORD_SAMPLE, PerfRecord.CPUMODE_USER)
                .u32(100)
                .u32(100)
                .u64(5_000)
                .u64(123_456)
                .u64(9_000)
                .u64(8_000)
                .u64(99);
        assertEquals(32, PerfRingReader.readSize(single.readFormat(), 1));
        assertEquals(8 + 3 * 16, PerfRingReader.readSize(attr.readFormat(), 3));
        Ring ring2 = new Ring(0);
        ring2.write(one.bytes());
        ring2.publish();
        got.clear();
        new PerfRingReader(ring2.map, single, PAGE).drain(got::add);
        PerfRecord.Sample o = assertInstanceOf(PerfRecord.Sample.class, got.getFirst());
        assertEquals(5_000, o.period());
        assertArrayEquals(new long[] {123_456}, o.read().values());
        assertArrayEquals(new long[] {99}, o.read().ids());
    }

    @Test
    void splitsCallchainsWithoutLeadingMarkerByCpumode() {
        long[][] split = PerfRingReader.splitCallchain(new long[] {0x10, 0x20}, PerfRecord.CPUMODE_USER);
        assertArrayEquals(new long[0], split[0]);
        assertArrayEquals(new long[] {0x10, 0x20}, split[1]);
        split = PerfRingReader.splitCallchain(
                new long[] {0xffffffff81000000L, PerfRingReader.CONTEXT_GUEST, 0x5, PerfRingReader.CONTEXT_USER, 0x30},
                PerfRecord.CPUMODE_KERNEL);
        assertArrayEquals(new long[] {0xffffffff81000000L}, split[0]);
        assertArrayEquals(new long[] {0x30}, split[1]);
    }

    @Test
    void corruptSizeResynchronizesInsteadOfLooping() {
        Ring ring = new Ring(0);
        ring.write(new Rec(PerfRingReader.RECORD_FORK, 0)
                .u32(1)
                .u32(1)
                .u32(2)
                .u32(1)
                .u64(1)
                .id(1, 2, 1, 0)
                .bytes());
        byte[] bad = new byte[16];
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 9).putShort(6, (short) 4);
        ring.write(bad);
        ring.publish();
        PerfRingReader reader = new PerfRingReader(ring.map, ATTR, PAGE);
        List<PerfRecord> got = new ArrayList<>();
        assertEquals(1, reader.drain(got::add));
        assertEquals(1, reader.skippedRecords());
        assertEquals(ring.head, ring.tail());
    }

    @Test
    void sampleIdSize() {
        assertEquals(24, PerfRingReader.sampleIdSize(PerfEventAttr.SAMPLE_DEFAULT));
        assertEquals(0, PerfRingReader.sampleIdSize(PerfEventAttr.SAMPLE_IP | PerfEventAttr.SAMPLE_CALLCHAIN));
    }
}
