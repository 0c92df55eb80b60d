package org.rocprofsys.core.event;

/**
 * One symbolized frame of a sampled call stack.
 *
 * @param symbol the function name ({@code [unknown]} when no symbol holds the pc)
 * @param module the mapped file, {@code [vdso]}, {@code [kernel.kallsyms]} or {@code [unknown]}
 * @param pc     the runtime address (a return address for caller frames)
 * @param file   the source file, or null without line information
 * @param line   the source line, 0 without line information
 */
public record StackFrame(String symbol, String module, long pc, String file, int line) {}
