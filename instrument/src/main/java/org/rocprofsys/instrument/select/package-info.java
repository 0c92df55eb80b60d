/**
 * Function selection as upstream's {@code should_instrument} (inventory §6.2):
 * {@link org.rocprofsys.instrument.select.SelectionOptions} (built by the CLI, plus
 * {@code withEnvironment} for ROCPROFSYS_REGEX_*), {@link org.rocprofsys.instrument.select.FunctionSelector}
 * deciding per {@link org.rocprofsys.instrument.select.FunctionFacts}, and the log lines
 * ({@link org.rocprofsys.instrument.select.SelectionMessage}) in upstream's words. Names are
 * demangled with libstdc++'s {@code __cxa_demangle} ({@link org.rocprofsys.elf.Demangler}).
 */
package org.rocprofsys.instrument.select;
