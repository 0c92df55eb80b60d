package org.rocprofsys.core.gpu;

/**
 * A memory copy as rocprofiler-sdk reports it: the vendor-neutral copy (its {@code stream} the HIP
 * stream id, 0 when none; its devices GPU indices, -1 for host memory) with the agents as upstream
 * annotates them and the thread that asked for it.
 *
 * @param srcNode  the source agent's logical node id (upstream's {@code src_agent})
 * @param dstNode  the destination agent's logical node id (upstream's {@code dst_agent})
 * @param tid      the thread whose call caused the copy
 * @param byQueue  placed on {@code GPU Memory Copy to Agent [<dst node>] Thread <n>}
 *                 ({@code ROCPROFSYS_ROCM_GROUP_BY_QUEUE}, or no HIP stream known); else on the
 *                 stream's track
 */
public record RocmMemoryCopy(GpuMemoryCopy copy, int srcNode, int dstNode, int tid, boolean byQueue)
        implements GpuEvent {
    @Override
    public int pid() {
        return copy.pid();
    }

    @Override
    public long timestampNs() {
        return copy.beginNs();
    }
}
