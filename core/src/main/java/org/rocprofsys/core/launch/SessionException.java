package org.rocprofsys.core.launch;

/** A run that could not be carried out: the target cannot be executed, a bad time window, a broken ring file. */
public final class SessionException extends Exception {
    public SessionException(String message) {
        super(message);
    }
}
