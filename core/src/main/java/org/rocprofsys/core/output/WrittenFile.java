package org.rocprofsys.core.output;

import java.nio.file.Path;

/**
 * A file an output wrote, as metadata.json lists it: under {@code kind} ({@code protobuf},
 * {@code json}, {@code text}), then {@code key} (e.g. {@code perfetto}, {@code wall_clock}).
 */
public record WrittenFile(String kind, String key, Path path) {}
