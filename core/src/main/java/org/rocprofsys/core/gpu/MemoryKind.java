package org.rocprofsys.core.gpu;

/** Where allocated memory lives. */
public enum MemoryKind {
    DEVICE,
    PINNED_HOST,
    PAGEABLE_HOST,
    MANAGED,
    ARRAY,
    OTHER
}
