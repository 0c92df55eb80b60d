/**
 * Capstone 4/5 through FFM: {@link org.rocprofsys.instrument.capstone.Capstone#openX86_64()} gives a
 * detail-mode x86-64 handle; {@code disassemble} yields {@link org.rocprofsys.instrument.capstone.Insn}
 * records that carry what relocation needs (RIP-relative displacement field, relative branch field
 * and target, groups). Structure offsets are constants per major version (see {@code CsLayout});
 * other versions are refused with a clear message.
 */
package org.rocprofsys.instrument.capstone;
