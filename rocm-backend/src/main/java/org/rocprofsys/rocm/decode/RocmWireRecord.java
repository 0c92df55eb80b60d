package org.rocprofsys.rocm.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.rocprofsys.core.spi.RecordFields.length;
import static org.rocprofsys.core.spi.RecordFields.need;
import static org.rocprofsys.core.spi.RecordFields.string;
import static org.rocprofsys.core.spi.RecordFields.strings;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.core.gpu.GpuArgument;
import org.rocprofsys.core.spi.RecordFields;

/**
 * One record of the ROCm backend as the wire carries it (docs/wire-protocol.md, "ROCm records"),
 * parsed but not interpreted.
 */
public sealed interface RocmWireRecord {
    /** A rocprofiler-sdk agent: the SDK's struct raw (a copy) and its name, vendor, product and model. */
    record Agent(MemorySegment raw, List<String> strings) implements RocmWireRecord {}

    /** One API call of callback kind {@code kind}, CLOCK_MONOTONIC ns. */
    record Api(
            int kind,
            long beginNs,
            long endNs,
            long correlationId,
            long stream,
            long sdkThread,
            int operation,
            String function,
            String message,
            List<GpuArgument> arguments)
            implements RocmWireRecord {}

    /**
     * A buffer record of buffer kind {@code kind}: the SDK's struct raw (a copy), what the tool
     * resolved for it, and the kernel name (empty for copies and scratch).
     *
     * @param clockOffsetNs the SDK's clock minus CLOCK_MONOTONIC
     * @param names         the strings after the kernel name (a counter record's counter names)
     */
    record Buffer(
            int kind,
            MemorySegment raw,
            long clockOffsetNs,
            long stream,
            int deviceA,
            int deviceB,
            int nodeA,
            int nodeB,
            String kernelName,
            List<String> names)
            implements RocmWireRecord {}

    // the ROCm backend's record types (agent/src/main/c/rocprofsys_wire.h, docs/wire-protocol.md)
    /** A rocprofiler-sdk agent: u32 raw size, u32 strings (4), rocprofiler_agent_v0_t raw padded to 8, strings. */
    int REC_ROCM_AGENT = 17;
    /**
     * A ROCm API call: u64 begin, u64 end (CLOCK_MONOTONIC ns), u64 correlation id, u64 HIP stream, u64 SDK
     * thread id, i32 operation, u32 nargs, function name, roctx message, nargs name/value pairs; aux =
     * rocprofiler_callback_tracing_kind_t.
     */
    int REC_ROCM_API = 18;
    /**
     * A raw rocprofiler-sdk buffer record: u32 raw size, u32 strings (1), i64 SDK clock - CLOCK_MONOTONIC,
     * u64 HIP stream, i32 device a, b, i32 node a, b, raw bytes padded to 8, kernel name; aux =
     * rocprofiler_buffer_tracing_kind_t.
     */
    int REC_ROCM_BUFFER = 19;

    /** True for the record types of the ROCm backend. */
    public static boolean isRocm(int type) {
        return type >= REC_ROCM_AGENT && type <= REC_ROCM_BUFFER;
    }

    /**
     * Parses {@code record} (the whole record, header included).
     *
     * @throws IllegalArgumentException when it is not a ROCm record or is shorter than its type says
     */
    static RocmWireRecord parse(MemorySegment record) {
        MemorySegment r = RecordFields.sized(record);
        int type = RecordFields.type(r);
        int aux = RecordFields.aux(r);
        return switch (type) {
            case REC_ROCM_AGENT -> {
                need(r, 16, "ROCM_AGENT");
                long raw = Integer.toUnsignedLong(r.get(JAVA_INT, 8));
                int n = r.get(JAVA_INT, 12);
                long at = 16 + ((raw + 7) & ~7L);
                need(r, at, "ROCM_AGENT of " + raw + " raw bytes");
                yield new Agent(copy(r, 16, raw), strings(r, at, n));
            }
            case REC_ROCM_API -> {
                need(r, 56, "ROCM_API");
                int nargs = r.get(JAVA_INT, 52);
                long at = 56;
                String function = string(r, at);
                at += length(r, at) + 1;
                String message = string(r, at);
                at += length(r, at) + 1;
                List<String> pairs = strings(r, at, 2 * nargs);
                List<GpuArgument> args = new ArrayList<>(nargs);
                for (int i = 0; i + 1 < pairs.size(); i += 2) {
                    args.add(new GpuArgument(pairs.get(i), pairs.get(i + 1)));
                }
                yield new Api(
                        aux,
                        r.get(JAVA_LONG, 8),
                        r.get(JAVA_LONG, 16),
                        r.get(JAVA_LONG, 24),
                        r.get(JAVA_LONG, 32),
                        r.get(JAVA_LONG, 40),
                        r.get(JAVA_INT, 48),
                        function,
                        message,
                        List.copyOf(args));
            }
            case REC_ROCM_BUFFER -> {
                need(r, 48, "ROCM_BUFFER");
                long raw = Integer.toUnsignedLong(r.get(JAVA_INT, 8));
                long at = 48 + ((raw + 7) & ~7L);
                need(r, at, "ROCM_BUFFER of " + raw + " raw bytes");
                int nstrings = r.get(JAVA_INT, 12);
                List<String> strings = strings(r, at, Math.max(1, nstrings));
                yield new Buffer(
                        aux,
                        copy(r, 48, raw),
                        r.get(JAVA_LONG, 16),
                        r.get(JAVA_LONG, 24),
                        r.get(JAVA_INT, 32),
                        r.get(JAVA_INT, 36),
                        r.get(JAVA_INT, 40),
                        r.get(JAVA_INT, 44),
                        strings.isEmpty() ? "" : strings.getFirst(),
                        strings.size() > 1 ? strings.subList(1, strings.size()) : List.of());
            }
            default -> throw new IllegalArgumentException("record type " + type + " is not a ROCm record");
        };
    }

    private static MemorySegment copy(MemorySegment r, long at, long bytes) {
        return MemorySegment.ofArray(r.asSlice(at, bytes).toArray(JAVA_BYTE));
    }
}
