package org.rocprofsys.core.event;

/**
 * The program turned collection on or off through the user API (start/stop trace): for the
 * whole process, or for the calling thread only. The pipeline applies it; outputs never see it.
 */
public record TraceControl(long timestampNs, int pid, int tid, boolean enable, boolean processWide)
        implements TraceEvent {}
