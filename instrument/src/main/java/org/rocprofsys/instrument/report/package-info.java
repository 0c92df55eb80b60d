/**
 * The diagnostic lists of inventory §6.4: {@link org.rocprofsys.instrument.report.ListFiles#write}
 * writes {available,instrumented,excluded,overlapping}.{txt,json,xml} into an instrumentation
 * folder (each file complete or absent), and {@link org.rocprofsys.instrument.report.PrintMode}
 * formats {@code --print-<list> MODE} for stdout.
 */
package org.rocprofsys.instrument.report;
