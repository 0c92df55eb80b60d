package org.rocprofsys.config.avail;

/**
 * A hardware or software counter as rocprof-sys-avail lists it.
 *
 * @param name        e.g. {@code perf::PERF_COUNT_SW_CPU_CLOCK}
 * @param device      {@code CPU} or a GPU name
 * @param available   whether it can be opened on this machine
 * @param description one line
 * @param category    e.g. {@code perf}
 */
public record HardwareCounter(String name, String device, boolean available, String description, String category) {}
