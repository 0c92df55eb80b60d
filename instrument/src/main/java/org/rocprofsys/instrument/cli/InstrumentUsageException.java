package org.rocprofsys.instrument.cli;

/** A command line rocprof-sys-instrument cannot run (exit status 1). */
public final class InstrumentUsageException extends Exception {
    public InstrumentUsageException(String message) {
        super(message);
    }
}
