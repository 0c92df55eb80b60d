package org.rocprofsys.core.event;

/** How a process image ended. */
public enum ProcessEnd {
    /** exit() or return from main: the agent finished normally. */
    EXITED,
    /** Killed by a signal (SIGSEGV, SIGKILL, OOM kill, ...): the agent could not finish. */
    KILLED_BY_SIGNAL,
    /** Replaced by exec(); the new image continues as another {@link ProcessStarted}. */
    EXEC,
    /** Gone without a trace of how (a descendant the collector cannot wait for). */
    VANISHED
}
