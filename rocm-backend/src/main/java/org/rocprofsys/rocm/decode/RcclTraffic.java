package org.rocprofsys.rocm.decode;

import java.util.List;
import java.util.Optional;
import org.rocprofsys.core.gpu.GpuArgument;

/**
 * The bytes an RCCL call moves, as upstream counts them (rocprofiler-sdk/rccl.cpp): element count
 * times the datatype's size, as received data for all-gather, all-to-all, all-reduce, gather, recv
 * and reduce, as sent data for broadcast, reduce-scatter and send. Read from the call's arguments
 * as the SDK prints them (the datatype as its ncclDataType_t number).
 */
record RcclTraffic(String label, long bytes) {
    static final String RECV = "RCCL Comm Recv";
    static final String SEND = "RCCL Comm Send";

    static Optional<RcclTraffic> of(String function, List<GpuArgument> args) {
        String label;
        String countArg;
        switch (function) {
            case "ncclAllGather", "ncclGather" -> {
                label = RECV;
                countArg = "sendcount";
            }
            case "ncclAllToAll", "ncclAllReduce", "ncclRecv", "ncclReduce" -> {
                label = RECV;
                countArg = "count";
            }
            case "ncclBroadcast", "ncclSend" -> {
                label = SEND;
                countArg = "count";
            }
            case "ncclReduceScatter" -> {
                label = SEND;
                countArg = "recvcount";
            }
            default -> {
                return Optional.empty();
            }
        }
        Long count = number(args, countArg);
        Long type = number(args, "datatype");
        if (count == null || type == null) {
            return Optional.empty();
        }
        int size = typeSize(type.intValue());
        return size == 0 ? Optional.empty() : Optional.of(new RcclTraffic(label, count * size));
    }

    /**
     * ncclDataType_t: int8, uint8, int32, uint32, int64, uint64, float16, float32, float64; other
     * types (bfloat16, fp8) count 0, as upstream's rccl_type_size has no size for them.
     */
    static int typeSize(int datatype) {
        return switch (datatype) {
            case 0, 1 -> 1;
            case 6 -> 2;
            case 2, 3, 7 -> 4;
            case 4, 5, 8 -> 8;
            default -> 0;
        };
    }

    private static Long number(List<GpuArgument> args, String name) {
        for (GpuArgument a : args) {
            if (a.name().equals(name)) {
                try {
                    return Long.parseLong(a.value().trim());
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
