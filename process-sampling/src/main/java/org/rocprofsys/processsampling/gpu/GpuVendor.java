package org.rocprofsys.processsampling.gpu;

import java.io.PrintStream;

/**
 * One GPU vendor's metric sampling: finds the vendor's GPUs and opens a backend for the selected
 * ones. {@link GpuBackends#VENDORS} lists the vendors in numbering order; a new vendor is one class
 * (or method) of this shape and one line there.
 */
@FunctionalInterface
public interface GpuVendor {
    /**
     * Finds the vendor's GPUs and opens a backend for those {@code options} select. A missing library
     * or driver is no error (no GPUs); what the user should know about is said once on {@code log}.
     *
     * @param firstIndex the number the user sees for the vendor's first GPU (the GPUs of the vendors
     *                   before it come first)
     */
    GpuDetection detect(GpuOptions options, int firstIndex, PrintStream log);
}
