package org.rocprofsys.core.gpu;

/** Direction of a memory copy. */
public enum CopyKind {
    HOST_TO_DEVICE("MEMORY_COPY_HOST_TO_DEVICE"),
    DEVICE_TO_HOST("MEMORY_COPY_DEVICE_TO_HOST"),
    DEVICE_TO_DEVICE("MEMORY_COPY_DEVICE_TO_DEVICE"),
    HOST_TO_HOST("MEMORY_COPY_HOST_TO_HOST"),
    PEER("MEMORY_COPY_PEER"),
    OTHER("MEMORY_COPY_OTHER");

    private final String operationName;

    CopyKind(String operationName) {
        this.operationName = operationName;
    }

    /** The slice name upstream gives the copy's operation ({@code MEMORY_COPY_HOST_TO_DEVICE}, ...). */
    public String operationName() {
        return operationName;
    }
}
