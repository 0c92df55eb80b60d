package org.rocprofsys.core.gpu;

/** What a host thread waited for. */
public enum SyncKind {
    EVENT,
    STREAM_WAIT_EVENT,
    STREAM,
    DEVICE,
    OTHER
}
