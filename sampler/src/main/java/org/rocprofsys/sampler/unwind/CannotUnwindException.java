package org.rocprofsys.sampler.unwind;

/** The unwind data at some pc is malformed or uses something this unwinder does not support. */
public final class CannotUnwindException extends Exception {
    private static final long serialVersionUID = 1L;

    public CannotUnwindException(String message) {
        super(message, null, false, false);
    }
}
