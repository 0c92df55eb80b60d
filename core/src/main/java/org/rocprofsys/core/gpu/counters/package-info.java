/**
 * GPU hardware counters per kernel, both vendors: the per-device, per-metric text files upstream
 * writes ({@code rocprof-device-<dev>-<METRIC>.txt}) and the counter rows of the stats.
 */
package org.rocprofsys.core.gpu.counters;
