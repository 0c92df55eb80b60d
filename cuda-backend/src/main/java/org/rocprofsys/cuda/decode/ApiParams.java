package org.rocprofsys.cuda.decode;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuArgument;

/**
 * The params structs of the API calls whose arguments the injection library records
 * ({@code rsys_cuda.c}'s {@code init_arg_specs}), as laid out by CUPTI's generated headers
 * ({@code generated_cuda_runtime_api_meta.h}, {@code generated_cuda_meta.h}; x86-64, natural
 * alignment), keyed by CUPTI's function name ({@code cudaLaunchKernel_v7000}, {@code cuMemAlloc_v2}),
 * with how each argument is shown. CuptiLayoutsTest holds every size and offset to the headers.
 */
public final class ApiParams {
    /** How an argument is shown. */
    enum Kind {
        /** an address, in hex */
        POINTER(8),
        /** a handle (stream, function), in hex */
        HANDLE(8),
        /** size_t, decimal */
        SIZE(8),
        /** int, decimal */
        INT(4),
        /** unsigned int, decimal */
        UINT(4),
        /** dim3, as {@code (x,y,z)} */
        DIM3(12),
        /** enum cudaMemcpyKind, by its name */
        MEMCPY_KIND(4);

        final int bytes;

        Kind(int bytes) {
            this.bytes = bytes;
        }

        int alignment() {
            return this == DIM3 ? 4 : bytes;
        }
    }

    record Field(String name, Kind kind) {}

    /** One params struct: its layout (for offsets) and its fields in order. */
    record Params(StructLayout layout, List<Field> fields) {
        long offset(String field) {
            return layout.byteOffset(PathElement.groupElement(field));
        }
    }

    private static final String[] MEMCPY_KINDS = {
        "cudaMemcpyHostToHost",
        "cudaMemcpyHostToDevice",
        "cudaMemcpyDeviceToHost",
        "cudaMemcpyDeviceToDevice",
        "cudaMemcpyDefault"
    };

    /** Every params struct, by CUPTI's function name. */
    static final Map<String, Params> BY_FUNCTION;

    static {
        Map<String, Params> m = new LinkedHashMap<>();
        Object[] launch = {
            "func",
            Kind.HANDLE,
            "gridDim",
            Kind.DIM3,
            "blockDim",
            Kind.DIM3,
            "args",
            Kind.POINTER,
            "sharedMem",
            Kind.SIZE,
            "stream",
            Kind.HANDLE
        };
        put(m, "cudaLaunchKernel_v7000", launch);
        put(m, "cudaLaunchKernel_ptsz_v7000", launch);
        Object[] memcpy = {"dst", Kind.POINTER, "src", Kind.POINTER, "count", Kind.SIZE, "kind", Kind.MEMCPY_KIND};
        put(m, "cudaMemcpy_v3020", memcpy);
        put(m, "cudaMemcpy_ptds_v7000", memcpy);
        Object[] memcpyAsync = {
            "dst",
            Kind.POINTER,
            "src",
            Kind.POINTER,
            "count",
            Kind.SIZE,
            "kind",
            Kind.MEMCPY_KIND,
            "stream",
            Kind.HANDLE
        };
        put(m, "cudaMemcpyAsync_v3020", memcpyAsync);
        put(m, "cudaMemcpyAsync_ptsz_v7000", memcpyAsync);
        Object[] memset = {"devPtr", Kind.POINTER, "value", Kind.INT, "count", Kind.SIZE};
        put(m, "cudaMemset_v3020", memset);
        put(m, "cudaMemset_ptds_v7000", memset);
        Object[] memsetAsync = {"devPtr", Kind.POINTER, "value", Kind.INT, "count", Kind.SIZE, "stream", Kind.HANDLE};
        put(m, "cudaMemsetAsync_v3020", memsetAsync);
        put(m, "cudaMemsetAsync_ptsz_v7000", memsetAsync);
        put(m, "cudaMalloc_v3020", "devPtr", Kind.POINTER, "size", Kind.SIZE);
        put(m, "cudaFree_v3020", "devPtr", Kind.POINTER);
        put(m, "cudaMallocHost_v3020", "ptr", Kind.POINTER, "size", Kind.SIZE);
        put(m, "cudaHostAlloc_v3020", "pHost", Kind.POINTER, "size", Kind.SIZE, "flags", Kind.UINT);
        put(m, "cudaFreeHost_v3020", "ptr", Kind.POINTER);
        put(m, "cudaMallocManaged_v6000", "devPtr", Kind.POINTER, "size", Kind.SIZE, "flags", Kind.UINT);
        Object[] mallocAsync = {"devPtr", Kind.POINTER, "size", Kind.SIZE, "hStream", Kind.HANDLE};
        put(m, "cudaMallocAsync_v11020", mallocAsync);
        put(m, "cudaMallocAsync_ptsz_v11020", mallocAsync);
        Object[] freeAsync = {"devPtr", Kind.POINTER, "hStream", Kind.HANDLE};
        put(m, "cudaFreeAsync_v11020", freeAsync);
        put(m, "cudaFreeAsync_ptsz_v11020", freeAsync);
        put(m, "cudaStreamSynchronize_v3020", "stream", Kind.HANDLE);
        put(m, "cudaStreamSynchronize_ptsz_v7000", "stream", Kind.HANDLE);
        Object[] cuLaunch = {
            "f",
            Kind.HANDLE,
            "gridDimX",
            Kind.UINT,
            "gridDimY",
            Kind.UINT,
            "gridDimZ",
            Kind.UINT,
            "blockDimX",
            Kind.UINT,
            "blockDimY",
            Kind.UINT,
            "blockDimZ",
            Kind.UINT,
            "sharedMemBytes",
            Kind.UINT,
            "hStream",
            Kind.HANDLE,
            "kernelParams",
            Kind.POINTER,
            "extra",
            Kind.POINTER
        };
        put(m, "cuLaunchKernel", cuLaunch);
        put(m, "cuLaunchKernel_ptsz", cuLaunch);
        put(m, "cuMemcpyHtoD_v2", "dstDevice", Kind.POINTER, "srcHost", Kind.POINTER, "ByteCount", Kind.SIZE);
        put(m, "cuMemcpyDtoH_v2", "dstHost", Kind.POINTER, "srcDevice", Kind.POINTER, "ByteCount", Kind.SIZE);
        put(m, "cuMemcpyDtoD_v2", "dstDevice", Kind.POINTER, "srcDevice", Kind.POINTER, "ByteCount", Kind.SIZE);
        put(
                m,
                "cuMemcpyHtoDAsync_v2",
                "dstDevice",
                Kind.POINTER,
                "srcHost",
                Kind.POINTER,
                "ByteCount",
                Kind.SIZE,
                "hStream",
                Kind.HANDLE);
        put(
                m,
                "cuMemcpyDtoHAsync_v2",
                "dstHost",
                Kind.POINTER,
                "srcDevice",
                Kind.POINTER,
                "ByteCount",
                Kind.SIZE,
                "hStream",
                Kind.HANDLE);
        put(m, "cuMemcpy", "dst", Kind.POINTER, "src", Kind.POINTER, "ByteCount", Kind.SIZE);
        put(
                m,
                "cuMemcpyAsync",
                "dst",
                Kind.POINTER,
                "src",
                Kind.POINTER,
                "ByteCount",
                Kind.SIZE,
                "hStream",
                Kind.HANDLE);
        put(m, "cuMemAlloc_v2", "dptr", Kind.POINTER, "bytesize", Kind.SIZE);
        put(m, "cuMemFree_v2", "dptr", Kind.POINTER);
        put(m, "cuStreamSynchronize", "hStream", Kind.HANDLE);
        BY_FUNCTION = Map.copyOf(m);
    }

    private ApiParams() {}

    private static void put(Map<String, Params> m, String function, Object... namesAndKinds) {
        List<Field> fields = new ArrayList<>();
        List<MemoryLayout> members = new ArrayList<>();
        long at = 0;
        long align = 1;
        for (int i = 0; i < namesAndKinds.length; i += 2) {
            Field f = new Field((String) namesAndKinds[i], (Kind) namesAndKinds[i + 1]);
            fields.add(f);
            int a = f.kind().alignment();
            align = Math.max(align, a);
            if (at % a != 0) {
                members.add(MemoryLayout.paddingLayout(a - at % a));
                at += a - at % a;
            }
            members.add(MemoryLayout.sequenceLayout(f.kind().bytes, java.lang.foreign.ValueLayout.JAVA_BYTE)
                    .withName(f.name()));
            at += f.kind().bytes;
        }
        if (at % align != 0) {
            members.add(MemoryLayout.paddingLayout(align - at % align));
        }
        m.put(
                function,
                new Params(
                        MemoryLayout.structLayout(members.toArray(MemoryLayout[]::new))
                                .withName(function + "_params"),
                        List.copyOf(fields)));
    }

    /** The params struct of {@code cuptiFunction}, or null when its arguments are not recorded. */
    static Params of(String cuptiFunction) {
        return BY_FUNCTION.get(cuptiFunction);
    }

    /**
     * The arguments of one call: {@code params} is the struct as recorded; {@code output}, when
     * the call has an output pointer (its first argument), is what the call stored through it, shown
     * in that argument's place.
     */
    static List<GpuArgument> decode(Params p, MemorySegment params, Long output) {
        if (params.byteSize() < p.layout().byteSize()) {
            return List.of();
        }
        List<GpuArgument> args = new ArrayList<>(p.fields().size());
        boolean first = true;
        for (Field f : p.fields()) {
            long at = p.offset(f.name());
            String value = first && output != null ? hex(output) : format(f.kind(), params, at);
            args.add(new GpuArgument(f.name(), value));
            first = false;
        }
        return List.copyOf(args);
    }

    private static String format(Kind kind, MemorySegment s, long at) {
        return switch (kind) {
            case POINTER, HANDLE -> hex(s.get(JAVA_LONG_UNALIGNED, at));
            case SIZE -> Long.toUnsignedString(s.get(JAVA_LONG_UNALIGNED, at));
            case INT -> Integer.toString(s.get(JAVA_INT_UNALIGNED, at));
            case UINT -> Integer.toUnsignedString(s.get(JAVA_INT_UNALIGNED, at));
            case DIM3 ->
                new Dim3(
                                s.get(JAVA_INT_UNALIGNED, at),
                                s.get(JAVA_INT_UNALIGNED, at + 4),
                                s.get(JAVA_INT_UNALIGNED, at + 8))
                        .toString();
            case MEMCPY_KIND -> {
                int k = s.get(JAVA_INT_UNALIGNED, at);
                yield k >= 0 && k < MEMCPY_KINDS.length ? MEMCPY_KINDS[k] : Integer.toString(k);
            }
        };
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
