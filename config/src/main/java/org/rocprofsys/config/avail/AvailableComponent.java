package org.rocprofsys.config.avail;

/**
 * A measurement component as rocprof-sys-avail lists it (timemory's component table).
 *
 * @param name        e.g. {@code wall_clock}
 * @param available   whether this build and machine can collect it
 * @param valueType   the type of one measurement, e.g. {@code int64_t}
 * @param stringIds   the names accepted in ROCPROFSYS_TIMEMORY_COMPONENTS, space-separated
 * @param fileName    the output file stem, e.g. {@code wall_clock}
 * @param description one line
 * @param category    e.g. {@code timing}
 */
public record AvailableComponent(
        String name,
        boolean available,
        String valueType,
        String stringIds,
        String fileName,
        String description,
        String category) {}
