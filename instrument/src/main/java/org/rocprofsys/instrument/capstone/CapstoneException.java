package org.rocprofsys.instrument.capstone;

/** Capstone could not be loaded, is a version whose ABI this binding does not know, or failed. */
public final class CapstoneException extends RuntimeException {
    public CapstoneException(String message) {
        super(message);
    }

    public CapstoneException(String message, Throwable cause) {
        super(message, cause);
    }
}
