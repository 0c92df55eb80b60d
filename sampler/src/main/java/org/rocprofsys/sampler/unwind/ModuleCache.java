package org.rocprofsys.sampler.unwind;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.rocprofsys.elf.DebugFiles;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ProgramHeader;

/**
 * Parsed ELF files and their CFI (with the {@code .debug_frame} of a separate debug file, see
 * {@link CfiTable#load(ElfFile, ElfFile)}), by path; a file that cannot be read (pseudo-paths such as
 * [vdso], deleted files, non-ELF) is remembered as missing. Thread-safe.
 */
public final class ModuleCache {
    /** One file's image and tables. */
    public record Module(ElfFile elf, CfiTable cfi) {
        /** Runtime address = link-time address + this, for a mapping of the file. */
        public long loadBias(AddressSpace.Mapping m) {
            return ModuleCache.loadBias(elf, m.start(), m.pageOffset());
        }
    }

    /**
     * The load bias of a mapping of {@code elf} at {@code mapStart} from file offset
     * {@code pageOffset}: runtime address = link-time vaddr + bias. Uses the PT_LOAD holding that
     * offset (page-aligned: the segment's vaddr - offset difference carries over).
     */
    public static long loadBias(ElfFile elf, long mapStart, long pageOffset) {
        ProgramHeader s = elf.loadSegmentAtOffset(pageOffset).orElse(null);
        if (s == null) {
            // Page-rounded segment starts: find the segment starting within this page.
            for (ProgramHeader seg : elf.loadSegments()) {
                if ((seg.offset() & ~0xfffL) == pageOffset) {
                    s = seg;
                    break;
                }
            }
        }
        long delta = s == null ? 0 : s.vaddr() - s.offset();
        return mapStart - pageOffset - delta;
    }

    private final Map<String, Optional<Module>> modules = new ConcurrentHashMap<>();

    /** The module of {@code path}, or null when it has no usable ELF file. */
    public Module get(String path) {
        return modules.computeIfAbsent(path, ModuleCache::load).orElse(null);
    }

    public int size() {
        return modules.size();
    }

    private static Optional<Module> load(String path) {
        if (path == null
                || path.isEmpty()
                || path.startsWith("[")
                || path.startsWith("//")
                || path.endsWith(" (deleted)")) {
            return Optional.empty();
        }
        Path p = Path.of(path);
        if (!Files.isRegularFile(p)) {
            return Optional.empty();
        }
        try {
            ElfFile elf = ElfFile.open(p);
            ElfFile debug = elf.section(".debug_frame").isPresent()
                    ? null
                    : DebugFiles.system().open(elf).orElse(null);
            return Optional.of(new Module(elf, CfiTable.load(elf, debug)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
