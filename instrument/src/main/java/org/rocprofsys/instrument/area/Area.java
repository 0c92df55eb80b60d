package org.rocprofsys.instrument.area;

import java.util.List;

/**
 * One instrumentation area as {@link AreaBuilder} made it: relocations not applied
 * ({@code flags} bit 0 clear, {@code area_vaddr} 0), the form a runtime plan file carries.
 * {@link #applied(long)} gives the bytes for a known placement (rewrite mode).
 *
 * @param bytes   the area, unapplied
 * @param rxSize  bytes from 0 that are read+execute (a page multiple); also the data page's offset
 * @param codeOff offset of the entry stub, where the code starts (everything before it is header
 *                and tables)
 * @param codeEnd end of the last trampoline (int3 padding follows up to {@code rxSize})
 */
public record Area(byte[] bytes, List<Function> functions, List<Reloc> relocs, int rxSize, int codeOff, int codeEnd) {
    /**
     * One function of the area.
     *
     * @param funcVaddr   entry address relative to the module's load bias
     * @param trampOff    offset of its trampoline in the area
     * @param patchLength bytes replaced at the entry
     * @param label       region name
     */
    public record Function(long funcVaddr, int trampOff, int patchLength, String label) {}

    /** A rel32 field inside the area pointing into the module (value = S + A - P). */
    public record Reloc(int areaOff, int addend, long targetVaddr) {}

    public Area {
        functions = List.copyOf(functions);
        relocs = List.copyOf(relocs);
    }

    /** The area bytes, unapplied (a copy). */
    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Total size: {@link #rxSize()} plus the data page. */
    public int size() {
        return bytes.length;
    }

    public int dataOff() {
        return rxSize;
    }

    /**
     * The area bytes with every relocation resolved for an area placed at {@code areaVaddr}
     * (relative to the module's load bias), {@code flags} bit 0 set and {@code area_vaddr} filled.
     *
     * @throws IllegalArgumentException when a target is out of rel32 reach of its field
     */
    public byte[] applied(long areaVaddr) {
        byte[] out = bytes.clone();
        for (Reloc r : relocs) {
            long value = r.targetVaddr() + r.addend() - (areaVaddr + r.areaOff());
            if (value != (int) value) {
                throw new IllegalArgumentException(String.format(
                        "relocation at area offset 0x%x: target 0x%x out of rel32 reach of area at 0x%x",
                        r.areaOff(), r.targetVaddr(), areaVaddr));
            }
            AreaFormat.putInt(out, r.areaOff(), (int) value);
        }
        AreaFormat.putInt(
                out, AreaFormat.H_FLAGS, AreaFormat.getInt(out, AreaFormat.H_FLAGS) | AreaFormat.FLAG_APPLIED);
        AreaFormat.putLong(out, AreaFormat.H_AREA_VADDR, areaVaddr);
        return out;
    }
}
