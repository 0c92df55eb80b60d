package org.rocprofsys.instrument.select;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Itanium C++ ABI demangling through libstdc++'s {@code __cxa_demangle} (FFM), the demangler the
 * compilers' own tools use. Where libstdc++ cannot be loaded names are returned as they are.
 */
public final class Demangler {
    private static final MethodHandle CXA_DEMANGLE;
    private static final MethodHandle FREE;

    static {
        MethodHandle demangle = null;
        MethodHandle free = null;
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup lib = SymbolLookup.libraryLookup("libstdc++.so.6", Arena.global());
            demangle = linker.downcallHandle(lib.find("__cxa_demangle").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                    FunctionDescriptor.ofVoid(ADDRESS));
        } catch (RuntimeException e) {
            demangle = null;
        }
        CXA_DEMANGLE = demangle;
        FREE = free;
    }

    private final ConcurrentHashMap<String, String> cache = new ConcurrentHashMap<>();

    /** Whether names can be demangled here. */
    public static boolean available() {
        return CXA_DEMANGLE != null;
    }

    /**
     * The demangled form of {@code symbol}; the symbol itself when it is not a mangled C++ name.
     * A version suffix ({@code @GLIBCXX_3.4}) and GCC clone suffixes ({@code .constprop.0}) are
     * kept in the result as c++filt does.
     */
    public String demangle(String symbol) {
        if (CXA_DEMANGLE == null || !symbol.startsWith("_Z")) return symbol;
        return cache.computeIfAbsent(symbol, Demangler::callDemangle);
    }

    private static String callDemangle(String symbol) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            MemorySegment in = arena.allocateFrom(symbol);
            MemorySegment out = (MemorySegment) CXA_DEMANGLE.invokeExact(in, MemorySegment.NULL, MemorySegment.NULL, status);
            if (status.get(JAVA_INT, 0) != 0 || out.equals(MemorySegment.NULL)) return symbol;
            try {
                return out.reinterpret(Long.MAX_VALUE).getString(0);
            } finally {
                FREE.invokeExact(out);
            }
        } catch (Throwable t) {
            return symbol;
        }
    }
}
