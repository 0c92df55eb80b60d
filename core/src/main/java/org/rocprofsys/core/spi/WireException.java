package org.rocprofsys.core.spi;

/** A ring file that breaks the protocol: wrong magic or version, impossible geometry, a corrupt record. */
public final class WireException extends Exception {
    public WireException(String message) {
        super(message);
    }
}
