package org.rocprofsys.ffm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

/** The outcome of {@link OptionalLibrary#load}: the library that loaded, or why none did. */
public sealed interface LibraryLoad {
    /** {@code candidate} (as the caller spelled it) loaded; its symbols live as long as the arena given to load. */
    record Loaded(String candidate, SymbolLookup lookup) implements LibraryLoad {
        /** A downcall to {@code symbol}; an UnsatisfiedLinkError naming the library when it lacks it. */
        public MethodHandle downcall(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
            return Linker.nativeLinker().downcallHandle(require(symbol), descriptor, options);
        }

        /** A downcall to {@code symbol}, or empty where this version of the library lacks it. */
        public Optional<MethodHandle> optionalDowncall(String symbol, FunctionDescriptor descriptor) {
            return lookup.find(symbol).map(s -> Linker.nativeLinker().downcallHandle(s, descriptor));
        }

        public MemorySegment require(String symbol) {
            return lookup.find(symbol)
                    .orElseThrow(() -> new UnsatisfiedLinkError(candidate + " has no symbol " + symbol));
        }
    }

    /** None of {@code tried} could be loaded; {@code reason} says so in one sentence. */
    record Missing(List<String> tried, String reason) implements LibraryLoad {
        public Missing {
            tried = List.copyOf(tried);
        }
    }
}
