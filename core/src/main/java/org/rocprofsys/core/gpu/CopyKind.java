package org.rocprofsys.core.gpu;

/** Direction of a memory copy. */
public enum CopyKind {
    HOST_TO_DEVICE,
    DEVICE_TO_HOST,
    DEVICE_TO_DEVICE,
    HOST_TO_HOST,
    PEER,
    OTHER;

    /** The slice name upstream gives the copy's operation ({@code MEMORY_COPY_HOST_TO_DEVICE}, ...). */
    public String operationName() {
        return "MEMORY_COPY_" + name();
    }
}
