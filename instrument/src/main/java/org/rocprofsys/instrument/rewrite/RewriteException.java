package org.rocprofsys.instrument.rewrite;

import java.io.IOException;

/**
 * Why a rewrite (or a plan file) could not be written: an input that is not an x86-64 ELF64
 * executable or shared library, an unwritable output, a function that cannot be patched. The
 * message is meant for the user as it is; no partial output is left behind.
 */
public class RewriteException extends IOException {
    public RewriteException(String message) {
        super(message);
    }

    public RewriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
