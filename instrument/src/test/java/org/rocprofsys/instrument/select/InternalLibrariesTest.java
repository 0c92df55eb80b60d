package org.rocprofsys.instrument.select;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InternalLibrariesTest {
    @Test
    void aNameIsTheFileOrItsLeadingPartBeforeADotOrDash() {
        assertTrue(InternalLibraries.names(List.of("liblzma"), "liblzma.so.5.4.1"));
        assertTrue(InternalLibraries.names(List.of("liblzma.so.5"), "liblzma.so.5.4.1"));
        assertTrue(InternalLibraries.names(List.of("libfoo"), "libfoo-2.1.so"));
        assertTrue(InternalLibraries.names(List.of("liblzma.so.5.4.1"), "liblzma.so.5.4.1"));
        assertFalse(InternalLibraries.names(List.of("libz"), "libzstd.so.1"), "a prefix of another name");
        assertFalse(InternalLibraries.names(List.of("lzma"), "liblzma.so.5"));
    }

    @Test
    void removeLiftsUpstreamsListAndAppendAddsToIt() {
        InternalLibraries none = InternalLibraries.NONE;
        assertTrue(none.internal("liblzma.so.5.4.1"));
        assertTrue(none.internal("libc.so.6"));
        assertFalse(none.internal("libsqlite3.so.0.8.6"));
        InternalLibraries changed = new InternalLibraries(List.of("libsqlite3"), List.of("liblzma"));
        assertFalse(changed.internal("liblzma.so.5.4.1"));
        assertTrue(changed.internal("libsqlite3.so.0.8.6"));
        assertTrue(changed.internal("libc.so.6"));
    }
}
