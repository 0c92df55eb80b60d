package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The collector's own calibration pairs: reading the time-stamp counter needs native code, so this
 * calls {@code rocprofsys_wire_read_clock_pair} of the agent library that wrote the file (its path
 * is in the file header), loaded once per path with {@link SymbolLookup#libraryLookup} (RTLD_LOCAL:
 * the library's wrappers of exit, fork, ... interpose nothing in this JVM, and its constructor stays
 * dormant because ROCPROFSYS_SESSION_DIR is not set here).
 */
final class AgentClock {
    private static final ConcurrentHashMap<String, Optional<AgentClock>> LIBRARIES = new ConcurrentHashMap<>();

    private final MethodHandle readPair;
    private final MemorySegment monotonicNs = Arena.global().allocate(JAVA_LONG);

    private AgentClock(MethodHandle readPair) {
        this.readPair = readPair;
    }

    /** The helper of the agent library at {@code path}; empty when there is none or it cannot be loaded. */
    static Optional<AgentClock> of(String path) {
        if (path == null || path.isEmpty()) {
            return Optional.empty();
        }
        return LIBRARIES.computeIfAbsent(path, AgentClock::load);
    }

    private static Optional<AgentClock> load(String path) {
        try {
            SymbolLookup library = SymbolLookup.libraryLookup(Path.of(path), Arena.global());
            return library.find(WireFormat.READ_CLOCK_PAIR_SYMBOL)
                    .map(fn -> new AgentClock(
                            Linker.nativeLinker().downcallHandle(fn, FunctionDescriptor.of(JAVA_LONG, ADDRESS))));
        } catch (RuntimeException e) {
            return Optional.empty(); // not loadable here (gone, other architecture, native access denied)
        }
    }

    /** A pair now: time-stamp counter ticks (0 where there is none) and CLOCK_MONOTONIC ns. */
    synchronized ClockConversion.Pair read() {
        try {
            long ticks = (long) readPair.invokeExact(monotonicNs);
            return new ClockConversion.Pair(ticks, monotonicNs.get(JAVA_LONG, 0));
        } catch (Throwable t) {
            throw new IllegalStateException(WireFormat.READ_CLOCK_PAIR_SYMBOL + " failed", t);
        }
    }
}
