package org.rocprofsys.sampler.perf;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Reads one perf ring buffer: the {@code struct perf_event_mmap_page} metadata page followed by
 * the 2^n-page data area (the whole mmap of a perf event fd), and decodes its records into
 * {@link PerfRecord}s.
 *
 * <p>Protocol: {@code data_head} (offset 1024) is read with acquire order, the records between
 * our tail and it are decoded (a record that runs past the end of the data area is copied into
 * a scratch buffer in two pieces), then {@code data_tail} (offset 1032) is written with release
 * order so the kernel may reuse the space. {@code data_offset}/{@code data_size} (1040/1048) give
 * the data area; kernels before 4.1 leave them 0 and the data starts one page in.
 *
 * <p>Not thread-safe: one reader per ring, one draining thread.
 */
public final class PerfRingReader {
    static final long OFF_DATA_HEAD = 1024;
    static final long OFF_DATA_TAIL = 1032;
    static final long OFF_DATA_OFFSET = 1040;
    static final long OFF_DATA_SIZE = 1048;

    // perf_event_type
    static final int RECORD_MMAP = 1;
    static final int RECORD_LOST = 2;
    static final int RECORD_COMM = 3;
    static final int RECORD_EXIT = 4;
    static final int RECORD_THROTTLE = 5;
    static final int RECORD_UNTHROTTLE = 6;
    static final int RECORD_FORK = 7;
    static final int RECORD_SAMPLE = 9;
    static final int RECORD_MMAP2 = 10;
    static final int RECORD_LOST_SAMPLES = 13;

    static final int MISC_CPUMODE_MASK = 7;
    /** On COMM: caused by exec. */
    static final int MISC_COMM_EXEC = 1 << 13;
    /** On MMAP/MMAP2: a non-executable (data) mapping. */
    static final int MISC_MMAP_DATA = 1 << 13;
    /** On MMAP2: the build-id union member is filled instead of maj/min/ino. */
    static final int MISC_MMAP_BUILD_ID = 1 << 14;

    // PERF_CONTEXT_* callchain markers (u64 values near -1).
    static final long CONTEXT_HV = -32;
    static final long CONTEXT_KERNEL = -128;
    static final long CONTEXT_USER = -512;
    static final long CONTEXT_GUEST = -2048;
    static final long CONTEXT_GUEST_KERNEL = -2176;
    static final long CONTEXT_GUEST_USER = -2560;
    /** Every marker is >= this (unsigned); no real address is that high. */
    static final long CONTEXT_MAX = -4095;

    private static final VarHandle LONG_VH = JAVA_LONG.varHandle();
    private static final long[] NO_LONGS = new long[0];
    private static final byte[] NO_BYTES = new byte[0];

    private final MemorySegment mapping;
    private final MemorySegment data;
    private final long dataSize;
    private final long mask;
    private final PerfEventAttr attr;
    private final int sampleIdSize;
    /** A record is at most 65535 bytes (u16 size). */
    private final MemorySegment scratch = MemorySegment.ofArray(new byte[65536]);

    private long tail;
    private long lostRecords;
    private long samples;
    private long throttles;
    private long skippedRecords;
    /** Copies given up because head and tail disagreed (the copying thread's; see skippedRecords). */
    private long resyncs;

    private long wrappedRecords;

    /**
     * @param mapping  the whole mapping: metadata page then data area
     * @param attr     the attributes the event was opened with (sample_type, regs mask, sample_id_all)
     * @param pageSize the metadata page's size, used when the kernel does not publish data_offset
     */
    public PerfRingReader(MemorySegment mapping, PerfEventAttr attr, long pageSize) {
        if (attr.samples(PerfEventAttr.SAMPLE_BRANCH_STACK)) {
            throw new IllegalArgumentException("PERF_SAMPLE_BRANCH_STACK is not decoded");
        }
        this.mapping = mapping;
        this.attr = attr;
        long off = mapping.get(JAVA_LONG, OFF_DATA_OFFSET);
        long size = mapping.get(JAVA_LONG, OFF_DATA_SIZE);
        if (off == 0 || size == 0) {
            off = pageSize;
            size = mapping.byteSize() - pageSize;
        }
        if (Long.bitCount(size) != 1 || off + size > mapping.byteSize()) {
            throw new IllegalArgumentException(
                    "bad perf ring: data_offset " + off + ", data_size " + size + ", mapping " + mapping.byteSize());
        }
        this.data = mapping.asSlice(off, size);
        this.dataSize = size;
        this.mask = size - 1;
        this.tail = mapping.get(JAVA_LONG, OFF_DATA_TAIL);
        this.sampleIdSize = attr.has(PerfEventAttr.FLAG_SAMPLE_ID_ALL) ? sampleIdSize(attr.sampleType()) : 0;
    }

    static int sampleIdSize(long sampleType) {
        int n = 0;
        for (long bit : new long[] {
            PerfEventAttr.SAMPLE_TID,
            PerfEventAttr.SAMPLE_TIME,
            PerfEventAttr.SAMPLE_ID,
            PerfEventAttr.SAMPLE_STREAM_ID,
            PerfEventAttr.SAMPLE_CPU,
            PerfEventAttr.SAMPLE_IDENTIFIER
        }) {
            if ((sampleType & bit) != 0) {
                n += 8;
            }
        }
        return n;
    }

    /** The size of the ring's data area: the most one {@link #copyPending} copies. */
    public long dataBytes() {
        return dataSize;
    }

    /** Bytes written by the kernel and not yet consumed. */
    public long pending() {
        return (long) LONG_VH.getAcquire(mapping, OFF_DATA_HEAD) - tail;
    }

    /**
     * Decodes every complete record present now and hands each to {@code out} (on this thread),
     * then releases the space to the kernel. Record types not modelled are skipped (counted).
     *
     * @return the number of records handed out
     */
    public int drain(Consumer<? super PerfRecord> out) {
        long head = (long) LONG_VH.getAcquire(mapping, OFF_DATA_HEAD);
        if (head - tail > dataSize || head < tail) {
            // Should not happen (the kernel never overruns an un-consumed tail); resynchronize.
            skippedRecords++;
            tail = head;
            LONG_VH.setRelease(mapping, OFF_DATA_TAIL, tail);
            return 0;
        }
        int handed = 0;
        while (tail < head) {
            long off = tail & mask;
            int type = data.get(JAVA_INT_UNALIGNED, off);
            int misc = Short.toUnsignedInt(data.get(JAVA_SHORT_UNALIGNED, off + 4));
            int size = Short.toUnsignedInt(data.get(JAVA_SHORT_UNALIGNED, off + 6));
            if (size < 8 || size > head - tail) {
                skippedRecords++;
                tail = head;
                break;
            }
            MemorySegment rec;
            if (off + size <= dataSize) {
                rec = data.asSlice(off, size);
            } else {
                long first = dataSize - off;
                MemorySegment.copy(data, off, scratch, 0, first);
                MemorySegment.copy(data, 0, scratch, first, size - first);
                rec = scratch.asSlice(0, size);
                wrappedRecords++;
            }
            handed += handOn(type, misc, rec, out);
            tail += size;
        }
        LONG_VH.setRelease(mapping, OFF_DATA_TAIL, tail);
        return handed;
    }

    /**
     * Copies every byte the kernel has written and this reader not yet consumed, in order, and
     * hands the space back: the cheapest way to keep a ring from overflowing, leaving the decoding
     * ({@link #decodeCopy}) for later or another thread. The copy goes into {@code room} (see
     * {@link RingCopies}); empty when nothing is pending.
     */
    public MemorySegment copyPending(LongFunction<MemorySegment> room) {
        long head = (long) LONG_VH.getAcquire(mapping, OFF_DATA_HEAD);
        if (head - tail > dataSize || head < tail) {
            // as in drain: should not happen; resynchronize
            resyncs++;
            tail = head;
            LONG_VH.setRelease(mapping, OFF_DATA_TAIL, tail);
            return MemorySegment.NULL;
        }
        long n = head - tail;
        if (n == 0) {
            return MemorySegment.NULL;
        }
        MemorySegment copy = room.apply(n);
        long off = tail & mask;
        long first = Math.min(n, dataSize - off);
        MemorySegment.copy(data, off, copy, 0, first);
        if (first < n) {
            MemorySegment.copy(data, 0, copy, first, n - first);
        }
        tail = head;
        LONG_VH.setRelease(mapping, OFF_DATA_TAIL, tail);
        return copy;
    }

    /**
     * Decodes the records of a {@link #copyPending} copy and hands each to {@code out}, as
     * {@link #drain} does; one thread at a time (it counts samples and losses).
     *
     * @return the number of records handed out
     */
    public int decodeCopy(MemorySegment bytes, Consumer<? super PerfRecord> out) {
        int handed = 0;
        for (long at = 0; at + 8 <= bytes.byteSize(); ) {
            int type = bytes.get(JAVA_INT_UNALIGNED, at);
            int misc = Short.toUnsignedInt(bytes.get(JAVA_SHORT_UNALIGNED, at + 4));
            int size = Short.toUnsignedInt(bytes.get(JAVA_SHORT_UNALIGNED, at + 6));
            if (size < 8 || size > bytes.byteSize() - at) {
                skippedRecords++;
                break;
            }
            handed += handOn(type, misc, bytes.asSlice(at, size), out);
            at += size;
        }
        return handed;
    }

    /** Decodes one record and hands it to {@code out}: 1, or 0 for a type not modelled or malformed. */
    private int handOn(int type, int misc, MemorySegment rec, Consumer<? super PerfRecord> out) {
        PerfRecord r;
        try {
            r = decode(type, misc, rec);
        } catch (IndexOutOfBoundsException e) {
            r = null; // malformed record: skip it, keep the stream going
        }
        if (r == null) {
            skippedRecords++;
            return 0;
        }
        out.accept(r);
        return 1;
    }

    /** Records (and samples) the kernel reported as dropped, summed over LOST and LOST_SAMPLES. */
    public long lostRecords() {
        return lostRecords;
    }

    public long samples() {
        return samples;
    }

    public long throttles() {
        return throttles;
    }

    /** Records of types not modelled, or malformed, and bytes given up to resynchronize. */
    public long skippedRecords() {
        return skippedRecords + resyncs;
    }

    /** Records that crossed the end of the data area (copied in two pieces). */
    public long wrappedRecords() {
        return wrappedRecords;
    }

    PerfRecord decode(int type, int misc, MemorySegment rec) {
        return switch (type) {
            case RECORD_SAMPLE -> {
                samples++;
                yield decodeSample(misc, rec);
            }
            case RECORD_MMAP, RECORD_MMAP2 -> decodeMmap(type == RECORD_MMAP2, misc, rec);
            case RECORD_COMM -> {
                int pid = rec.get(JAVA_INT_UNALIGNED, 8);
                int tid = rec.get(JAVA_INT_UNALIGNED, 12);
                String comm = cString(rec, 16, rec.byteSize() - sampleIdSize);
                yield new PerfRecord.Comm(idTime(rec), pid, tid, comm, (misc & MISC_COMM_EXEC) != 0);
            }
            case RECORD_FORK, RECORD_EXIT -> {
                int pid = rec.get(JAVA_INT_UNALIGNED, 8);
                int ppid = rec.get(JAVA_INT_UNALIGNED, 12);
                int tid = rec.get(JAVA_INT_UNALIGNED, 16);
                int ptid = rec.get(JAVA_INT_UNALIGNED, 20);
                long time = rec.get(JAVA_LONG_UNALIGNED, 24);
                yield type == RECORD_FORK
                        ? new PerfRecord.Fork(time, pid, ppid, tid, ptid)
                        : new PerfRecord.Exit(time, pid, ppid, tid, ptid);
            }
            case RECORD_LOST -> {
                long lost = rec.get(JAVA_LONG_UNALIGNED, 16);
                lostRecords += lost;
                yield new PerfRecord.Lost(idTime(rec), rec.get(JAVA_LONG_UNALIGNED, 8), lost);
            }
            case RECORD_LOST_SAMPLES -> {
                long lost = rec.get(JAVA_LONG_UNALIGNED, 8);
                lostRecords += lost;
                yield new PerfRecord.Lost(idTime(rec), -1, lost);
            }
            case RECORD_THROTTLE, RECORD_UNTHROTTLE -> {
                if (type == RECORD_THROTTLE) {
                    throttles++;
                }
                yield new PerfRecord.Throttle(
                        rec.get(JAVA_LONG_UNALIGNED, 8), rec.get(JAVA_LONG_UNALIGNED, 16), type == RECORD_THROTTLE);
            }
            default -> null;
        };
    }

    private PerfRecord.Sample decodeSample(int misc, MemorySegment rec) {
        long st = attr.sampleType();
        long p = 8;
        long ip = -1;
        long time = -1;
        long period = -1;
        int pid = -1;
        int tid = -1;
        int cpu = -1;
        if ((st & PerfEventAttr.SAMPLE_IDENTIFIER) != 0) {
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_IP) != 0) {
            ip = rec.get(JAVA_LONG_UNALIGNED, p);
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_TID) != 0) {
            pid = rec.get(JAVA_INT_UNALIGNED, p);
            tid = rec.get(JAVA_INT_UNALIGNED, p + 4);
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_TIME) != 0) {
            time = rec.get(JAVA_LONG_UNALIGNED, p);
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_ADDR) != 0) {
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_ID) != 0) {
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_STREAM_ID) != 0) {
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_CPU) != 0) {
            cpu = rec.get(JAVA_INT_UNALIGNED, p);
            p += 8;
        }
        if ((st & PerfEventAttr.SAMPLE_PERIOD) != 0) {
            period = rec.get(JAVA_LONG_UNALIGNED, p);
            p += 8;
        }
        PerfRecord.Counts read = PerfRecord.Counts.NONE;
        if ((st & PerfEventAttr.SAMPLE_READ) != 0) {
            read = decodeRead(rec, p);
            p += readSize(attr.readFormat(), read.size());
        }
        long[] kernel = NO_LONGS;
        long[] user = NO_LONGS;
        if ((st & PerfEventAttr.SAMPLE_CALLCHAIN) != 0) {
            long nr = rec.get(JAVA_LONG_UNALIGNED, p);
            p += 8;
            if (nr < 0 || p + nr * 8 > rec.byteSize()) {
                throw new IndexOutOfBoundsException("callchain nr " + nr);
            }
            long[] ips = new long[(int) nr];
            MemorySegment.copy(rec, JAVA_LONG_UNALIGNED, p, ips, 0, (int) nr);
            p += nr * 8;
            long[][] split = splitCallchain(ips, misc & MISC_CPUMODE_MASK);
            kernel = split[0];
            user = split[1];
        }
        if ((st & PerfEventAttr.SAMPLE_RAW) != 0) {
            int rawSize = rec.get(JAVA_INT_UNALIGNED, p);
            p += 4 + rawSize; // u32 size + data, padded so the next field is 8-aligned
            p = (p + 7) & ~7L;
        }
        long abi = -1;
        long[] regs = NO_LONGS;
        if ((st & PerfEventAttr.SAMPLE_REGS_USER) != 0) {
            abi = rec.get(JAVA_LONG_UNALIGNED, p);
            p += 8;
            if (abi != 0) { // PERF_SAMPLE_REGS_ABI_NONE: no registers follow (kernel thread)
                int n = Long.bitCount(attr.sampleRegsUser());
                regs = new long[n];
                MemorySegment.copy(rec, JAVA_LONG_UNALIGNED, p, regs, 0, n);
                p += 8L * n;
            }
        }
        byte[] stack = NO_BYTES;
        if ((st & PerfEventAttr.SAMPLE_STACK_USER) != 0) {
            long size = rec.get(JAVA_LONG_UNALIGNED, p);
            p += 8;
            if (size > 0) {
                long dyn = rec.get(JAVA_LONG_UNALIGNED, p + size);
                long keep = Math.max(0, Math.min(dyn, size));
                stack = new byte[(int) keep];
                MemorySegment.copy(rec, JAVA_BYTE, p, stack, 0, (int) keep);
                p += size + 8;
            }
        }
        return new PerfRecord.Sample(
                time, pid, tid, cpu, ip, period, misc & MISC_CPUMODE_MASK, kernel, user, abi, regs, stack, read);
    }

    /**
     * struct read_format at {@code p}: with PERF_FORMAT_GROUP {@code nr}, the optional times, then
     * per event {value, id?, lost?}; without it {value, times?, id?, lost?}.
     */
    private PerfRecord.Counts decodeRead(MemorySegment rec, long p) {
        long format = attr.readFormat();
        int times = readTimes(format);
        boolean withId = (format & PerfEventAttr.FORMAT_ID) != 0;
        if ((format & PerfEventAttr.FORMAT_GROUP) == 0) {
            long value = rec.get(JAVA_LONG_UNALIGNED, p);
            long id = withId ? rec.get(JAVA_LONG_UNALIGNED, p + 8L * (1 + times)) : -1;
            return new PerfRecord.Counts(new long[] {value}, new long[] {id});
        }
        long nr = rec.get(JAVA_LONG_UNALIGNED, p);
        if (nr < 0 || nr > Integer.MAX_VALUE || p + readSize(format, (int) nr) > rec.byteSize()) {
            throw new IndexOutOfBoundsException("read_format nr " + nr);
        }
        long[] values = new long[(int) nr];
        long[] ids = new long[(int) nr];
        long stride = 8L * readWordsPerEvent(format);
        long q = p + 8L * (1 + times);
        for (int i = 0; i < nr; i++, q += stride) {
            values[i] = rec.get(JAVA_LONG_UNALIGNED, q);
            ids[i] = withId ? rec.get(JAVA_LONG_UNALIGNED, q + 8) : -1;
        }
        return new PerfRecord.Counts(values, ids);
    }

    /** Bytes of a struct read_format of {@code events} events. */
    static long readSize(long format, int events) {
        int times = readTimes(format);
        int perEvent = readWordsPerEvent(format);
        return (format & PerfEventAttr.FORMAT_GROUP) != 0
                ? 8L * (1 + times + (long) events * perEvent)
                : 8L * (times + perEvent);
    }

    /** The u64 times a read_format carries once: time_enabled, time_running. */
    private static int readTimes(long format) {
        return Long.bitCount(
                format & (PerfEventAttr.FORMAT_TOTAL_TIME_ENABLED | PerfEventAttr.FORMAT_TOTAL_TIME_RUNNING));
    }

    /** The u64s a read_format carries per event: value, id, lost. */
    private static int readWordsPerEvent(long format) {
        return 1
                + ((format & PerfEventAttr.FORMAT_ID) != 0 ? 1 : 0)
                + ((format & PerfEventAttr.FORMAT_LOST) != 0 ? 1 : 0);
    }

    /** Splits a raw callchain at its context markers into {kernel frames, user frames}. */
    static long[][] splitCallchain(long[] ips, int cpumode) {
        int nk = 0;
        int nu = 0;
        // context before the first marker: by the sample's cpumode
        long ctx = cpumode == PerfRecord.CPUMODE_KERNEL ? CONTEXT_KERNEL : CONTEXT_USER;
        for (long ip : ips) {
            if (Long.compareUnsigned(ip, CONTEXT_MAX) >= 0) {
                ctx = ip;
            } else if (ctx == CONTEXT_KERNEL) {
                nk++;
            } else if (ctx == CONTEXT_USER) {
                nu++;
            }
        }
        long[] k = nk == 0 ? NO_LONGS : new long[nk];
        long[] u = nu == 0 ? NO_LONGS : new long[nu];
        int ik = 0;
        int iu = 0;
        ctx = cpumode == PerfRecord.CPUMODE_KERNEL ? CONTEXT_KERNEL : CONTEXT_USER;
        for (long ip : ips) {
            if (Long.compareUnsigned(ip, CONTEXT_MAX) >= 0) {
                ctx = ip;
            } else if (ctx == CONTEXT_KERNEL) {
                k[ik++] = ip;
            } else if (ctx == CONTEXT_USER) {
                u[iu++] = ip;
            }
        }
        return new long[][] {k, u};
    }

    private PerfRecord.Mmap decodeMmap(boolean mmap2, int misc, MemorySegment rec) {
        int pid = rec.get(JAVA_INT_UNALIGNED, 8);
        int tid = rec.get(JAVA_INT_UNALIGNED, 12);
        long addr = rec.get(JAVA_LONG_UNALIGNED, 16);
        long len = rec.get(JAVA_LONG_UNALIGNED, 24);
        long pgoff = rec.get(JAVA_LONG_UNALIGNED, 32);
        int maj = -1;
        int min = -1;
        long ino = -1;
        long inoGen = -1;
        byte[] buildId = NO_BYTES;
        int prot = -1;
        int flags = -1;
        long nameAt = 40;
        if (mmap2) {
            if ((misc & MISC_MMAP_BUILD_ID) != 0) {
                int n = Math.min(20, Byte.toUnsignedInt(rec.get(JAVA_BYTE, 40)));
                buildId = new byte[n];
                MemorySegment.copy(rec, JAVA_BYTE, 44, buildId, 0, n);
            } else {
                maj = rec.get(JAVA_INT_UNALIGNED, 40);
                min = rec.get(JAVA_INT_UNALIGNED, 44);
                ino = rec.get(JAVA_LONG_UNALIGNED, 48);
                inoGen = rec.get(JAVA_LONG_UNALIGNED, 56);
            }
            prot = rec.get(JAVA_INT_UNALIGNED, 64);
            flags = rec.get(JAVA_INT_UNALIGNED, 68);
            nameAt = 72;
        }
        String name = cString(rec, nameAt, rec.byteSize() - sampleIdSize);
        return new PerfRecord.Mmap(
                idTime(rec),
                pid,
                tid,
                addr,
                len,
                pgoff,
                maj,
                min,
                ino,
                inoGen,
                buildId,
                prot,
                flags,
                name,
                mmap2,
                (misc & MISC_MMAP_DATA) != 0);
    }

    /** The TIME field of the trailing sample_id (sample_id_all), or -1. */
    private long idTime(MemorySegment rec) {
        if (sampleIdSize == 0 || !attr.samples(PerfEventAttr.SAMPLE_TIME)) {
            return -1;
        }
        long p = rec.byteSize() - sampleIdSize;
        if (attr.samples(PerfEventAttr.SAMPLE_TID)) {
            p += 8;
        }
        return rec.get(JAVA_LONG_UNALIGNED, p);
    }

    private static String cString(MemorySegment rec, long from, long limit) {
        long end = from;
        while (end < limit && rec.get(JAVA_BYTE, end) != 0) {
            end++;
        }
        byte[] b = new byte[(int) (end - from)];
        MemorySegment.copy(rec, JAVA_BYTE, from, b, 0, b.length);
        return new String(b, StandardCharsets.UTF_8);
    }
}
