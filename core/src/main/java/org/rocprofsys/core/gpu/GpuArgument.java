package org.rocprofsys.core.gpu;

/** A named argument of an API call, as text (the writers show it as an annotation). */
public record GpuArgument(String name, String value) {}
