package org.rocprofsys.core.gpu;

/**
 * A trace track of a process that device work is drawn on, as the backend names it.
 *
 * @param key          the track's identity within its process (work with the same key shares the
 *                     track)
 * @param name         the track's name, or its start where {@code numberedTid} is set
 * @param numberedTid  -1, or a thread whose number in its process (0 the main thread, then in the
 *                     order threads started) the writer appends to {@code name}
 */
public record DeviceTrack(String key, String name, int numberedTid) {
    public DeviceTrack(String key, String name) {
        this(key, name, -1);
    }
}
