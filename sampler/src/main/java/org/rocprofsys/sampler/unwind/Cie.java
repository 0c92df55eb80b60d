package org.rocprofsys.sampler.unwind;

/**
 * A Common Information Entry.
 *
 * @param offset        its offset in its section
 * @param version       1 (eh_frame), 3 or 4 (debug_frame)
 * @param augmentation  "", "zR", "zPLR", "zRS" ...
 * @param codeAlign     code alignment factor
 * @param dataAlign     data alignment factor
 * @param returnColumn  the register column holding the return address (16 on x86-64)
 * @param fdeEncoding   DW_EH_PE_* of the FDEs' addresses (absptr in debug_frame)
 * @param lsdaEncoding  DW_EH_PE_* of the FDEs' LSDA pointers, or omit
 * @param signalFrame   'S': frames of this CIE are signal trampolines (their caller pc is exact)
 * @param hasAugmentationData 'z': FDEs carry an augmentation data length
 * @param instructions  the initial instructions
 * @param instructionsAddr the link-time address of the first instruction byte
 */
public record Cie(
        long offset,
        int version,
        String augmentation,
        long codeAlign,
        long dataAlign,
        int returnColumn,
        int fdeEncoding,
        int lsdaEncoding,
        boolean signalFrame,
        boolean hasAugmentationData,
        byte[] instructions,
        long instructionsAddr) {}
