package org.rocprofsys.instrument.plan;

import java.util.List;

/**
 * A function that will be instrumented.
 *
 * @param function       the symbol
 * @param label          the region name recorded at entry and exit (inventory §6.3, {@code --label})
 * @param patchLength    bytes at the entry that the 5-byte jump replaces (whole instructions, >= 5)
 * @param relocatedCode  those instructions re-encoded to run elsewhere: PC-relative fields hold 0
 *                       and are described by {@code fixups}; short branches became rel32 forms
 * @param fixups         the PC-relative fields of {@code relocatedCode}
 */
public record PlannedFunction(
        FunctionInfo function, String label, int patchLength, byte[] relocatedCode, List<CodeFixup> fixups) {
    public PlannedFunction {
        if (patchLength < 5) {
            throw new IllegalArgumentException("patch length " + patchLength + " < 5 for " + function.name());
        }
        fixups = List.copyOf(fixups);
    }
}
