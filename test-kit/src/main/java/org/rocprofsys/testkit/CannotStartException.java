package org.rocprofsys.testkit;

import java.io.IOException;

/** The program of a {@link Command} could not be started at all (most often: it is not installed). */
public final class CannotStartException extends IOException {
    public CannotStartException(String program, IOException cause) {
        super("cannot run " + program + ": " + cause.getMessage(), cause);
    }
}
