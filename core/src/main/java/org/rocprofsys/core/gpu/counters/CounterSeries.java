package org.rocprofsys.core.gpu.counters;

/**
 * One device's metric.
 *
 * @param metricKey the metric as file and track names spell it ({@code TA_TA_BUSY_11})
 * @param metric    the name the user gave ({@code TA_TA_BUSY[11]})
 */
record CounterSeries(int device, String metricKey, String metric) {}
