package org.rocprofsys.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.List;
import org.junit.jupiter.api.Test;

class OptionalLibraryTest {
    @Test
    void firstLoadableCandidateWins() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            LibraryLoad r = OptionalLibrary.load(
                    "libc", List.of("libno-such-library.so.9", "/no/such/dir/libc.so.6", "libc.so.6"), arena);
            LibraryLoad.Loaded lib = assertInstanceOf(LibraryLoad.Loaded.class, r);
            assertEquals("libc.so.6", lib.candidate());
            MethodHandle strlen = lib.downcall("strlen", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
            assertEquals(5L, (long) strlen.invokeExact(arena.allocateFrom("hello")));
            assertTrue(lib.optionalDowncall("no_such_function_here", FunctionDescriptor.ofVoid())
                    .isEmpty());
            UnsatisfiedLinkError e = assertThrows(
                    UnsatisfiedLinkError.class,
                    () -> lib.downcall("no_such_function_here", FunctionDescriptor.ofVoid()));
            assertEquals("libc.so.6 has no symbol no_such_function_here", e.getMessage());
        }
    }

    @Test
    void noneLoadsGivesOneReasonNamingEveryCandidate() {
        try (Arena arena = Arena.ofConfined()) {
            LibraryLoad r = OptionalLibrary.load("CUPTI", List.of("libcupti.so.99", "/no/such/libcupti.so"), arena);
            LibraryLoad.Missing m = assertInstanceOf(LibraryLoad.Missing.class, r);
            assertEquals(List.of("libcupti.so.99", "/no/such/libcupti.so"), m.tried());
            assertEquals("CUPTI not found: could not load libcupti.so.99 or /no/such/libcupti.so", m.reason());
            assertEquals(
                    "AMD SMI not found: no candidate library was given",
                    ((LibraryLoad.Missing) OptionalLibrary.load("AMD SMI", List.of(), arena)).reason());
        }
    }
}
