package org.rocprofsys.rocm.counters;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocprofsys.config.avail.AvailCatalog;
import org.rocprofsys.config.avail.AvailableComponent;
import org.rocprofsys.config.avail.HardwareCounter;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;
import org.rocprofsys.rocm.decode.RocmLayouts;

/**
 * The GPU counters rocprof-sys-avail -H lists (device {@code GPU}, category {@code GPU}), as
 * upstream's {@code client_data::initialize_event_info} builds them: for every GPU agent
 * rocprofiler-sdk reports ({@code rocprofiler_query_available_agents}), every counter it supports
 * ({@code rocprofiler_iterate_agent_supported_counters}, names and descriptions from
 * {@code rocprofiler_query_counter_info}) except the hardware constants, named
 * {@code <NAME>:device=<N>} as ROCPROFSYS_ROCM_EVENTS takes them. Without the SDK there is none.
 */
public final class RocmCounterCatalog implements AvailCatalog {
    static final String DEVICE = "GPU";
    /** rocprofiler-sdk 1.0.0's library, by soname, then where ROCm installs it. */
    static final List<String> SDK_LIBRARIES =
            List.of("librocprofiler-sdk.so.1", "/opt/rocm/lib/librocprofiler-sdk.so.1", "librocprofiler-sdk.so");

    private static final int AGENT_INFO_VERSION_0 = 1;
    private static final int COUNTER_INFO_VERSION_0 = 1;
    /** {@code rocprofiler_counter_info_v0_t}: id, name, description, block, expression, flags. */
    private static final long COUNTER_INFO_SIZE = 48;

    private static final long COUNTER_INFO_NAME = 8;
    private static final long COUNTER_INFO_DESCRIPTION = 16;
    private static final long COUNTER_INFO_FLAGS = 40;
    private static final int IS_CONSTANT = 1;

    private final List<String> libraries;

    public RocmCounterCatalog() {
        this(SDK_LIBRARIES);
    }

    /** With the SDK found among {@code libraries} (the tests name the replay SDK). */
    public RocmCounterCatalog(List<String> libraries) {
        this.libraries = List.copyOf(libraries);
    }

    @Override
    public List<AvailableComponent> components() {
        return List.of();
    }

    @Override
    public List<HardwareCounter> hardwareCounters() {
        try (Arena arena = Arena.ofShared()) {
            return switch (OptionalLibrary.load("rocprofiler-sdk", libraries, arena)) {
                case LibraryLoad.Loaded l -> new Query(l.lookup(), arena).counters();
                case LibraryLoad.Missing m -> List.of();
            };
        } catch (RuntimeException e) {
            // an SDK that refuses (no GPU, an SDK of another ABI): avail lists the CPU counters
            return List.of();
        }
    }

    /** One listing: the SDK's functions and the upcalls they call back. */
    private static final class Query {
        private final Arena arena;
        private final MethodHandle queryAgents;
        private final MethodHandle iterateCounters;
        private final MethodHandle counterInfo;
        /** GPU agents as the agent query gave them: handle and device index. */
        private final List<long[]> gpus = new ArrayList<>();

        private final List<Long> counterIds = new ArrayList<>();

        Query(SymbolLookup sdk, Arena arena) {
            this.arena = arena;
            Linker linker = Linker.nativeLinker();
            queryAgents = function(
                    sdk,
                    linker,
                    "rocprofiler_query_available_agents",
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
            iterateCounters = function(
                    sdk,
                    linker,
                    "rocprofiler_iterate_agent_supported_counters",
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
            counterInfo = function(
                    sdk,
                    linker,
                    "rocprofiler_query_counter_info",
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS));
        }

        private static MethodHandle function(SymbolLookup sdk, Linker linker, String name, FunctionDescriptor d) {
            MemorySegment f = sdk.find(name).orElseThrow(() -> new IllegalStateException("no " + name));
            return linker.downcallHandle(f, d);
        }

        List<HardwareCounter> counters() {
            try {
                MemorySegment agentsCb =
                        upcall("agents", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
                int st = (int) queryAgents.invokeExact(
                        AGENT_INFO_VERSION_0, agentsCb, (long) RocmLayouts.Agent.SIZE, MemorySegment.NULL);
                if (st != 0) {
                    return List.of();
                }
                MemorySegment countersCb =
                        upcall("supported", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
                MemorySegment info = arena.allocate(COUNTER_INFO_SIZE, 8);
                List<HardwareCounter> out = new ArrayList<>();
                for (long[] gpu : gpus) {
                    counterIds.clear();
                    int s = (int) iterateCounters.invokeExact(gpu[0], countersCb, MemorySegment.NULL);
                    if (s != 0) {
                        continue;
                    }
                    for (long id : counterIds) {
                        info.fill((byte) 0);
                        if ((int) counterInfo.invokeExact(id, COUNTER_INFO_VERSION_0, info) != 0) {
                            continue;
                        }
                        if ((info.get(JAVA_BYTE, COUNTER_INFO_FLAGS) & IS_CONSTANT) != 0) {
                            continue;
                        }
                        string(info, COUNTER_INFO_NAME)
                                .ifPresent(name -> out.add(new HardwareCounter(
                                        name + ":device=" + gpu[1],
                                        DEVICE,
                                        true,
                                        string(info, COUNTER_INFO_DESCRIPTION).orElse(""),
                                        DEVICE)));
                    }
                }
                return out;
            } catch (Throwable t) {
                throw new IllegalStateException("rocprofiler-sdk counter query failed", t);
            }
        }

        private MemorySegment upcall(String method, FunctionDescriptor d) throws ReflectiveOperationException {
            MethodType type = d.toMethodType();
            MethodHandle h = MethodHandles.lookup()
                    .findVirtual(Query.class, method, type)
                    .bindTo(this);
            return Linker.nativeLinker().upcallStub(h, d, arena);
        }

        /** {@code rocprofiler_query_available_agents_cb_t}: the GPUs and their device index. */
        @SuppressWarnings("unused") // called from native code
        private int agents(int version, MemorySegment list, long count, MemorySegment data) {
            MemorySegment pointers = list.reinterpret(count * ADDRESS.byteSize());
            for (long i = 0; i < count; i++) {
                MemorySegment a = pointers.getAtIndex(ADDRESS, i).reinterpret(RocmLayouts.Agent.SIZE);
                if (a.get(JAVA_INT, RocmLayouts.Agent.TYPE) == RocmLayouts.Agent.TYPE_GPU) {
                    gpus.add(new long[] {
                        a.get(JAVA_LONG, RocmLayouts.Agent.ID), a.get(JAVA_INT, RocmLayouts.Agent.LOGICAL_NODE_TYPE_ID)
                    });
                }
            }
            return 0;
        }

        /** {@code rocprofiler_available_counters_cb_t}: one agent's counter ids. */
        @SuppressWarnings("unused") // called from native code
        private int supported(long agent, MemorySegment ids, long count, MemorySegment data) {
            MemorySegment list = ids.reinterpret(count * JAVA_LONG.byteSize());
            for (long i = 0; i < count; i++) {
                counterIds.add(list.getAtIndex(JAVA_LONG, i));
            }
            return 0;
        }

        private static Optional<String> string(MemorySegment info, long offset) {
            MemorySegment p = info.get(ADDRESS, offset);
            return p.equals(MemorySegment.NULL)
                    ? Optional.empty()
                    : Optional.of(p.reinterpret(4096).getString(0));
        }
    }
}
