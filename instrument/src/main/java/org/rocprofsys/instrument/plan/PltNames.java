package org.rocprofsys.instrument.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfFormatException;
import org.rocprofsys.elf.ElfRelocation;
import org.rocprofsys.elf.SectionHeader;
import org.rocprofsys.instrument.capstone.Capstone;
import org.rocprofsys.instrument.capstone.Insn;

/**
 * Names of the PLT stubs of a module, so that a {@code call} into the PLT counts as a call of the
 * imported function (for {@code --caller-include}). Every stub of .plt, .plt.sec and .plt.got
 * jumps through a GOT slot ({@code jmp [rip + slot]}); the dynamic relocation of that slot
 * (JUMP_SLOT or GLOB_DAT) names the symbol. The stub is the section entry containing the jump.
 */
final class PltNames {
    private PltNames() {}

    static Map<Long, String> read(ElfFile elf, Capstone cs) throws ElfFormatException {
        Map<Long, String> slots = new HashMap<>();
        for (ElfRelocation r : elf.dynamicRelocations()) {
            if ((r.type() == ElfConstants.R_X86_64_JUMP_SLOT || r.type() == ElfConstants.R_X86_64_GLOB_DAT)
                    && !r.symbolName().isEmpty()) {
                slots.put(r.offset(), r.symbolName());
            }
        }
        Map<Long, String> stubs = new HashMap<>();
        if (slots.isEmpty()) return stubs;
        for (SectionHeader s : elf.sections()) {
            if (!s.executable()
                    || !(s.name().equals(".plt")
                            || s.name().equals(".plt.sec")
                            || s.name().equals(".plt.got"))) {
                continue;
            }
            if (s.size() == 0 || elf.vaddrToOffset(s.addr()) < 0) continue;
            long entry = s.entsize() > 0 ? s.entsize() : 16;
            List<Insn> insns = cs.disassemble(elf.segmentAt(s.addr(), s.size()), s.addr());
            for (Insn i : insns) {
                if (i.isIndirectJump() && i.rip() != null) {
                    String name = slots.get(i.rip().target());
                    if (name != null) {
                        long stub = s.addr() + ((i.address() - s.addr()) / entry) * entry;
                        stubs.putIfAbsent(stub, name);
                    }
                }
            }
        }
        return stubs;
    }
}
