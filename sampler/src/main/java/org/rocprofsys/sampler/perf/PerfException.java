package org.rocprofsys.sampler.perf;

import java.io.IOException;

/** A perf_event_open, mmap or ioctl call failed; {@link #errno()} is the kernel's reason (0 if none). */
public class PerfException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int errno;

    public PerfException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }
}
