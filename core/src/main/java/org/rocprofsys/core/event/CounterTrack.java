package org.rocprofsys.core.event;

/**
 * A counter series, e.g. {@code CPU Memory Usage (S)} in MB, or {@code GPU Temperature [0] (S)} in
 * deg C (inventory §4.3 names and units).
 *
 * @param name     the track name as upstream shows it
 * @param unit     the unit shown with the values ("MHz", "MB", "%", "deg C", "watts", "sec", "")
 * @param category the category the series belongs to (for filtering)
 * @param pid      the process the series describes, or 0 for a machine-wide series (CPU frequency,
 *                 GPU metrics)
 */
public record CounterTrack(String name, String unit, Category category, int pid) {}
