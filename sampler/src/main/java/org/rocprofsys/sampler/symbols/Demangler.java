package org.rocprofsys.sampler.symbols;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * C++ demangling through {@code __cxa_demangle} of libstdc++.so.6 (FFM); the returned malloc'd
 * buffer is released with libc free. Results are cached. Names that are not Itanium-mangled
 * ({@code _Z...}), or that fail to demangle, pass through unchanged, as does everything when
 * libstdc++ cannot be loaded.
 */
public final class Demangler {
    private static final Demangler SHARED = new Demangler();
    private static final int CACHE_LIMIT = 1 << 16;

    private final ConcurrentHashMap<String, String> cache = new ConcurrentHashMap<>();

    /** A process-wide instance. */
    public static Demangler shared() {
        return SHARED;
    }

    /** True when __cxa_demangle was found. */
    public static boolean available() {
        return Native.Cxx.CXA_DEMANGLE.isPresent();
    }

    public String demangle(String name) {
        if (name == null || !name.startsWith("_Z")) {
            return name;
        }
        String hit = cache.get(name);
        if (hit != null) {
            return hit;
        }
        String out = demangleUncached(name);
        if (cache.size() >= CACHE_LIMIT) {
            cache.clear();
        }
        cache.put(name, out);
        return out;
    }

    /** Calls __cxa_demangle; {@code name} itself when it is not a valid mangled name. */
    static String demangleUncached(String name) {
        Optional<MethodHandle> h = Native.Cxx.CXA_DEMANGLE;
        if (h.isEmpty()) {
            return name;
        }
        // versioned .dynsym-style suffixes (name@@VER) are not part of the mangling
        String base = name;
        String suffix = "";
        int at = name.indexOf('@');
        if (at > 0) {
            base = name.substring(0, at);
            suffix = name.substring(at);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment status = a.allocate(JAVA_INT);
            status.set(JAVA_INT, 0, -4);
            MemorySegment out = (MemorySegment) h.get().invokeExact(a.allocateFrom(base), MemorySegment.NULL,
                    MemorySegment.NULL, status);
            if (out.equals(MemorySegment.NULL)) {
                return name;
            }
            try {
                return status.get(JAVA_INT, 0) == 0 ? Native.cstr(out) + suffix : name;
            } finally {
                Native.Libc.free(out);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }
}
