package org.rocprofsys.instrument.plan;

/**
 * A 32-bit PC-relative field in relocated code that points back into the module
 * (ELF R_X86_64_PC32 semantics): {@code value = targetVaddr + addend - addressOfField}.
 *
 * @param offset      where the field starts, relative to the start of the code it belongs to
 * @param addend      A; usually minus the distance from the field to the end of its instruction
 * @param targetVaddr S, relative to the module's load bias
 */
public record CodeFixup(int offset, int addend, long targetVaddr) {}
