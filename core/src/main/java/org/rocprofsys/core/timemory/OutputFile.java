package org.rocprofsys.core.timemory;

import java.nio.file.Path;

/**
 * A file the timemory writer wrote, for metadata.json's {@code output} section
 * ({@code "json": [{"key": "wall_clock", "value": [paths]}]}, same for {@code "text"}).
 *
 * @param kind        "json" or "text"
 * @param label       the component label, e.g. "wall_clock" (the metadata key)
 * @param pid         the process whose profile it holds
 * @param path        where it is
 * @param printedName the name as the log line shows it (relative when the settings are)
 */
public record OutputFile(String kind, String label, int pid, Path path, String printedName) {}
