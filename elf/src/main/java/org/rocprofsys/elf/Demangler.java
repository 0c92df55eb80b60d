package org.rocprofsys.elf;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.rocprofsys.ffm.LibC;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;

/**
 * The project's one C++ demangler: Itanium C++ ABI names through libstdc++'s
 * {@code __cxa_demangle} (FFM), the demangler the compilers' own tools use; the returned malloc'd
 * buffer is released with libc free. Results are cached.
 *
 * <p>One rule for symbol versions: a {@code @VER} or {@code @@VER} suffix (as nm and .dynsym
 * readers print them) is not part of the mangling, so the name before it is demangled and the
 * suffix kept, as c++filt does ({@code _Z3foov@GLIBCXX_3.4} gives {@code foo()@GLIBCXX_3.4}).
 * Names that are not mangled ({@code _Z...}), that fail to demangle, or everything where
 * libstdc++ cannot be loaded, pass through unchanged.
 */
public final class Demangler {
    private static final Demangler SHARED = new Demangler();
    private static final int CACHE_LIMIT = 1 << 16;
    private static final MethodHandle CXA_DEMANGLE = OptionalLibrary.loadForever("libstdc++", List.of("libstdc++.so.6"))
                    instanceof LibraryLoad.Loaded lib
            ? lib.optionalDowncall("__cxa_demangle", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS))
                    .orElse(null)
            : null;

    private final ConcurrentHashMap<String, String> cache = new ConcurrentHashMap<>();

    /** A process-wide instance. */
    public static Demangler shared() {
        return SHARED;
    }

    /** True when __cxa_demangle was found. */
    public static boolean available() {
        return CXA_DEMANGLE != null;
    }

    /** The demangled form of {@code name}; {@code name} itself (null included) when it is not a mangled C++ name. */
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

    private static String demangleUncached(String name) {
        if (CXA_DEMANGLE == null) {
            return name;
        }
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
            MemorySegment out = (MemorySegment)
                    CXA_DEMANGLE.invokeExact(a.allocateFrom(base), MemorySegment.NULL, MemorySegment.NULL, status);
            if (out.equals(MemorySegment.NULL)) {
                return name;
            }
            try {
                return status.get(JAVA_INT, 0) == 0 ? LibC.string(out) + suffix : name;
            } finally {
                LibC.free(out);
            }
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }
}
