package org.rocprofsys.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rocprofsys.elf.testbin.SymBuild;
import org.rocprofsys.testkit.Command;

/** FDE enumeration: every function of a stripped file has its FDE, and only callee entries are entries. */
class FrameDescriptionsTest {
    static Path full;
    static Path stripped;

    @BeforeAll
    static void build() throws Exception {
        full = CfiPrograms.cold("cold");
        stripped = CfiPrograms.stripped(full, "cold.stripped");
    }

    private static Optional<FrameDescription> at(List<FrameDescription> fdes, long begin) {
        return fdes.stream().filter(f -> f.begin() == begin).findFirst();
    }

    @Test
    void everySizedFunctionHasItsFdeInTheStrippedFile() throws Exception {
        ElfFile elf = ElfFile.open(stripped);
        assertTrue(elf.symtab().isEmpty(), "stripped");
        List<FrameDescription> fdes = elf.frameDescriptions();
        Map<String, SymBuild.NmSym> nm = SymBuild.nm(full, false);
        for (String name : List.of("main", "work", "work.cold", "hidden_work", "report", "_start")) {
            SymBuild.NmSym s = nm.get(name);
            FrameDescription f = at(fdes, s.value()).orElseThrow(() -> new AssertionError("no FDE at " + name));
            assertEquals(s.value() + s.size(), f.end(), name + " ends where its symbol does");
        }
        // callee entries (CFA = rsp + 8, return address at [rsp]) ...
        for (String name : List.of("main", "work", "hidden_work", "report")) {
            assertTrue(at(fdes, nm.get(name).value()).orElseThrow().entryState(), name);
        }
        // ... but not a cold part (it continues work's frame) nor _start (return address undefined)
        assertFalse(at(fdes, nm.get("work.cold").value()).orElseThrow().entryState(), "work.cold");
        assertFalse(at(fdes, nm.get("_start").value()).orElseThrow().entryState(), "_start");
        // the PLT's FDE restates the frame before its first advance
        long plt = elf.section(".plt").orElseThrow().addr();
        assertFalse(at(fdes, plt).orElseThrow().entryState(), ".plt");
    }

    @Test
    void rangesMatchReadelf() throws Exception {
        String frames = Command.of("readelf", "--debug-dump=frames", stripped.toString())
                .ok();
        Matcher m =
                Pattern.compile("FDE cie=\\S+ pc=([0-9a-f]+)\\.\\.([0-9a-f]+)").matcher(frames);
        List<FrameDescription> fdes = ElfFile.open(stripped).frameDescriptions();
        int n = 0;
        while (m.find()) {
            long begin = Long.parseUnsignedLong(m.group(1), 16);
            long end = Long.parseUnsignedLong(m.group(2), 16);
            if (begin == end) continue;
            n++;
            assertEquals(end, at(fdes, begin).orElseThrow().end(), m.group());
        }
        assertEquals(n, fdes.size());
        assertTrue(n >= 7, frames);
    }

    @Test
    void aMalformedSectionKeepsWhatCameBefore() throws Exception {
        ElfFile elf = ElfFile.open(stripped);
        SectionHeader eh = elf.section(".eh_frame").orElseThrow();
        byte[] bytes = elf.sectionBytes(eh);
        List<FrameDescription> all = FrameDescriptions.read(java.nio.ByteBuffer.wrap(bytes), eh.addr(), true);
        // the length of the last FDE now runs past the section
        FrameDescription last =
                all.stream().max((a, b) -> Long.compare(a.offset(), b.offset())).orElseThrow();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) last.offset(), bytes.length);
        List<FrameDescription> cut = FrameDescriptions.read(b, eh.addr(), true);
        assertEquals(all.size() - 1, cut.size());
    }
}
