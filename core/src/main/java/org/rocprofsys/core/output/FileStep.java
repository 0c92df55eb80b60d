package org.rocprofsys.core.output;

import java.io.IOException;

/** A step of writing an output, which may fail on its file (a full disk). */
@FunctionalInterface
public interface FileStep {
    void run() throws IOException;
}
