package org.rocprofsys.cuda.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.rocprofsys.core.spi.RecordFields.length;
import static org.rocprofsys.core.spi.RecordFields.need;
import static org.rocprofsys.core.spi.RecordFields.string;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.core.spi.RecordFields;

/**
 * One record of the CUDA backend as the wire carries it (docs/wire-protocol.md, "GPU records"),
 * parsed but not interpreted: the record types of the injection library.
 */
public sealed interface CudaWireRecord {
    /** The name of API function {@code cbid} of callback domain {@code domain}. */
    record ApiName(int domain, int cbid, String name) implements CudaWireRecord {}

    /**
     * One API call, CLOCK_MONOTONIC ns.
     *
     * @param args its stream and arguments, null when not recorded
     */
    record ApiCall(int domain, int cbid, long beginNs, long endNs, long correlationId, ApiArgs args)
            implements CudaWireRecord {
        ApiCall(int domain, int cbid, long beginNs, long endNs, long correlationId) {
            this(domain, cbid, beginNs, endNs, correlationId, null);
        }
    }

    /**
     * The recorded tail of an API call: CUPTI's id of its stream argument (-1: none), its params
     * struct as the callback saw it (a copy), and what it stored through its output pointer (null
     * when it has none).
     */
    record ApiArgs(long streamId, MemorySegment params, Long output) {}

    /**
     * A CUPTI activity record of {@code kind}: its raw bytes (a copy) and the strings its pointer
     * fields pointed to, in declaration order.
     */
    record Activity(int kind, MemorySegment raw, List<String> strings) implements CudaWireRecord {}

    /** An NVTX call ({@code cbid}, CUPTI_CBID_NVTX_*) at {@code timeNs}. */
    record Nvtx(int cbid, long timeNs, long id, long domainHandle, String message) implements CudaWireRecord {}

    /**
     * A context's counter set-up on CUDA device {@code device}: CUPTI's chip name, the passes each
     * kernel is replayed for, and the metric names in the order of every later {@link Counters}.
     */
    record CounterNames(int device, String chip, int passes, List<String> metrics) implements CudaWireRecord {}

    /**
     * One kernel's metric values as CUPTI evaluated them, for the launch with {@code correlationId}
     * (made at {@code launchNs}); {@code matched} false when no launch of ours matched the range.
     */
    record Counters(
            int device,
            long launchNs,
            long correlationId,
            int range,
            boolean matched,
            double[] values,
            String rangeName)
            implements CudaWireRecord {}

    // the CUDA backend's record types (agent/src/main/c/rocprofsys_wire.h, docs/wire-protocol.md)
    /** Name of a CUDA API function: u32 cbid, u32 0, name; aux = CUPTI callback domain (1 driver, 2 runtime). */
    int REC_CUDA_API_NAME = 13;
    /** A CUDA API call: u64 begin ns, u64 end ns, u32 cbid, u32 correlation id; aux = callback domain. */
    int REC_CUDA_API = 14;
    /** A raw CUPTI activity record: u32 raw size, u32 strings, raw bytes padded to 8, strings; aux = activity kind. */
    int REC_CUDA_ACTIVITY = 15;
    /** An NVTX call: u64 time ns, u64 id, u64 domain handle, message; aux = CUPTI NVTX callback id. */
    int REC_CUDA_NVTX = 16;
    /** A CUDA context's counter set-up: u32 metrics, u32 passes, chip, metric names; aux = CUDA device. */
    int REC_CUDA_COUNTER_NAMES = 24;
    /**
     * One kernel's metrics: u64 launch ns, u32 correlation id, u32 range, u32 metrics, u32 flags, f64 values,
     * range name; aux = CUDA device.
     */
    int REC_CUDA_COUNTERS = 25;

    /** True for the record types of the CUDA backend. */
    public static boolean isCuda(int type) {
        return (type >= REC_CUDA_API_NAME && type <= REC_CUDA_NVTX)
                || type == REC_CUDA_COUNTER_NAMES
                || type == REC_CUDA_COUNTERS;
    }

    /**
     * Parses {@code record} (the whole record, header included).
     *
     * @throws IllegalArgumentException when it is not a CUDA record or is shorter than its type
     *                                  says
     */
    static CudaWireRecord parse(MemorySegment record) {
        MemorySegment r = RecordFields.sized(record);
        int type = RecordFields.type(r);
        int aux = RecordFields.aux(r);
        return switch (type) {
            case REC_CUDA_API_NAME -> {
                need(r, 17, "CUDA_API_NAME");
                yield new ApiName(aux, r.get(JAVA_INT, 8), string(r, 16));
            }
            case REC_CUDA_API -> {
                need(r, 32, "CUDA_API");
                yield new ApiCall(
                        aux,
                        r.get(JAVA_INT, 24),
                        r.get(JAVA_LONG, 8),
                        r.get(JAVA_LONG, 16),
                        Integer.toUnsignedLong(r.get(JAVA_INT, 28)),
                        r.byteSize() > 32 ? apiArgs(r) : null);
            }
            case REC_CUDA_ACTIVITY -> activity(r, aux);
            case REC_CUDA_NVTX -> {
                need(r, 33, "CUDA_NVTX");
                yield new Nvtx(aux, r.get(JAVA_LONG, 8), r.get(JAVA_LONG, 16), r.get(JAVA_LONG, 24), string(r, 32));
            }
            case REC_CUDA_COUNTER_NAMES -> counterNames(r, aux);
            case REC_CUDA_COUNTERS -> counters(r, aux);
            default -> throw new IllegalArgumentException("record type " + type + " is not a CUDA record");
        };
    }

    /** After the fixed part: u32 stream id, u16 params size, u16 has-output, params (8-aligned), u64 output. */
    private static ApiArgs apiArgs(MemorySegment r) {
        need(r, 40, "CUDA_API with arguments");
        int stream = r.get(JAVA_INT, 32);
        int paramsSize = Short.toUnsignedInt(r.get(JAVA_SHORT, 36));
        boolean hasOutput = r.get(JAVA_SHORT, 38) != 0;
        long outputAt = 40 + ((paramsSize + 7) & ~7L);
        need(r, hasOutput ? outputAt + 8 : 40 + paramsSize, "CUDA_API of " + paramsSize + " params bytes");
        MemorySegment params = MemorySegment.ofArray(r.asSlice(40, paramsSize).toArray(JAVA_BYTE));
        return new ApiArgs(
                stream == -1 ? -1 : Integer.toUnsignedLong(stream),
                params,
                hasOutput ? r.get(JAVA_LONG, outputAt) : null);
    }

    private static Activity activity(MemorySegment r, int kind) {
        need(r, 16, "CUDA_ACTIVITY");
        long raw = Integer.toUnsignedLong(r.get(JAVA_INT, 8));
        int nstrings = r.get(JAVA_INT, 12);
        long stringsAt = 16 + ((raw + 7) & ~7L);
        need(r, stringsAt, "CUDA_ACTIVITY of " + raw + " raw bytes");
        MemorySegment copy = MemorySegment.ofArray(r.asSlice(16, raw).toArray(JAVA_BYTE));
        List<String> strings = new ArrayList<>(nstrings);
        long at = stringsAt;
        for (int i = 0; i < nstrings && at < r.byteSize(); i++) {
            int len = length(r, at);
            strings.add(new String(r.asSlice(at, len).toArray(JAVA_BYTE), StandardCharsets.UTF_8));
            at += len + 1;
        }
        return new Activity(kind, copy, List.copyOf(strings));
    }

    private static CounterNames counterNames(MemorySegment r, int device) {
        need(r, 17, "CUDA_COUNTER_NAMES");
        int n = r.get(JAVA_INT, 8);
        int passes = r.get(JAVA_INT, 12);
        long at = 16;
        String chip = string(r, at);
        at += length(r, at) + 1;
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            need(r, at + 1, "CUDA_COUNTER_NAMES of " + n + " metrics");
            names.add(string(r, at));
            at += length(r, at) + 1;
        }
        return new CounterNames(device, chip, passes, List.copyOf(names));
    }

    private static Counters counters(MemorySegment r, int device) {
        need(r, 32, "CUDA_COUNTERS");
        int n = r.get(JAVA_INT, 24);
        need(r, 32 + 8L * n, "CUDA_COUNTERS of " + n + " metrics");
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = r.get(JAVA_DOUBLE, 32 + 8L * i);
        }
        return new Counters(
                device,
                r.get(JAVA_LONG, 8),
                Integer.toUnsignedLong(r.get(JAVA_INT, 16)),
                r.get(JAVA_INT, 20),
                (r.get(JAVA_INT, 28) & 1) == 0,
                values,
                string(r, 32 + 8L * n));
    }
}
