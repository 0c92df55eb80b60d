package org.rocprofsys.core.event;

/**
 * A named value attached to a region (user-API annotations, later function arguments). Becomes a
 * Perfetto debug annotation.
 */
public record Annotation(String name, AnnotationValue value) {}
