package org.rocprofsys.sampler.perf;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.rocprofsys.ffm.LibC;

/**
 * Memory for what a reader copies out of perf rings until another thread decodes it: off-heap
 * blocks, filled one after the other and reused once every copy in them has been consumed. So
 * their pages are touched once (a fresh allocation per copy faulted its pages in every time) and
 * no garbage collection moves the copies. Copies are consumed in the order they were made.
 * {@link #room} is for the copying thread, {@link #consumed} for the decoding one.
 */
public final class RingCopies implements AutoCloseable {
    private final long blockBytes;
    private final List<MemorySegment> blocks = new ArrayList<>();
    private final ConcurrentLinkedQueue<Block> free = new ConcurrentLinkedQueue<>();
    /** The block of every copy not consumed yet, in the order the copies were made. */
    private final ConcurrentLinkedQueue<Block> owners = new ConcurrentLinkedQueue<>();
    /** The copying thread's block (filled up to its {@code used}). */
    private Block current;

    private long allocated;

    private static final class Block {
        final MemorySegment memory;
        long used;
        /** Copies in the block not consumed yet, plus one while it is the copying thread's. */
        final AtomicInteger holds = new AtomicInteger(1);

        Block(MemorySegment memory) {
            this.memory = memory;
        }
    }

    /** @param blockBytes the size of a block: at least the largest copy (a ring's data area) */
    public RingCopies(long blockBytes) {
        this.blockBytes = blockBytes;
    }

    /** A segment of {@code bytes} to copy into; consumed later by {@link #consumed}. */
    public MemorySegment room(long bytes) {
        if (bytes > blockBytes) {
            throw new IllegalArgumentException(bytes + " bytes exceed a block of " + blockBytes);
        }
        if (current == null || current.used + bytes > blockBytes) {
            if (current != null) {
                release(current);
            }
            current = free.poll();
            if (current == null) {
                current = new Block(newBlock(false));
            }
        }
        MemorySegment slot = current.memory.asSlice(current.used, bytes);
        current.used += (bytes + 7) & ~7L;
        current.holds.incrementAndGet();
        owners.add(current);
        return slot;
    }

    /** The oldest copy not consumed yet has been decoded: its space may be reused. */
    public void consumed() {
        Block b = owners.poll();
        if (b == null) {
            throw new IllegalStateException("no copy is outstanding");
        }
        release(b);
    }

    private void release(Block b) {
        if (b.holds.decrementAndGet() == 0) {
            b.used = 0;
            b.holds.set(1);
            free.add(b);
        }
    }

    /**
     * Maps and faults in blocks for {@code bytes} of copies now, before they are needed: a sampler
     * does it while its target still waits to start, so the target does not pay for the faults.
     */
    public void reserve(long bytes) {
        for (long n = 0; n < bytes; n += blockBytes) {
            free.add(new Block(newBlock(true)));
        }
    }

    /** Pages straight from the kernel: zeroed once, when first touched (Arena.allocate zeroes them again). */
    private MemorySegment newBlock(boolean populate) {
        LibC.Result r = LibC.mmapAnonymous(blockBytes, populate);
        if (r.value() == LibC.MAP_FAILED) {
            throw new OutOfMemoryError(
                    "cannot map " + blockBytes + " bytes for perf ring copies: " + LibC.strerror(r.errno()));
        }
        MemorySegment block = MemorySegment.ofAddress(r.value()).reinterpret(blockBytes);
        synchronized (blocks) {
            blocks.add(block);
        }
        allocated += blockBytes;
        return block;
    }

    /** Bytes of blocks allocated so far (the most the copies ever took at once, rounded up). */
    public long allocatedBytes() {
        return allocated;
    }

    /** Frees every block; no copy may be used after this. */
    @Override
    public void close() {
        synchronized (blocks) {
            blocks.forEach(b -> LibC.munmap(b, b.byteSize()));
            blocks.clear();
        }
    }
}
