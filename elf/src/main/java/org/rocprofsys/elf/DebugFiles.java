package org.rocprofsys.elf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * Finds the separate debug file of an ELF file as gdb and perf do: first by build-id
 * ({@code <root>/.build-id/xx/yyyy.debug}), then by {@code .gnu_debuglink} in the file's folder,
 * its {@code .debug/} subfolder and {@code <root>/<folder>}. A candidate is taken only when it is
 * an ELF file that belongs to this one: the same build-id when both have one, else the debuglink's
 * CRC-32 of its contents (gdb's checks), so a stale debug file of another build is never used.
 *
 * <p>The root is {@code /usr/lib/debug} (Debian's {@code -dbg}/{@code -dbgsym} packages install
 * there); tests give their own.
 */
public final class DebugFiles {
    public static final Path DEFAULT_ROOT = Path.of("/usr/lib/debug");

    private static final DebugFiles SYSTEM = new DebugFiles(List.of(DEFAULT_ROOT));

    private final List<Path> roots;

    public DebugFiles(List<Path> roots) {
        this.roots = List.copyOf(roots);
    }

    /** The lookup under {@code /usr/lib/debug}. */
    public static DebugFiles system() {
        return SYSTEM;
    }

    /** The paths tried for {@code elf}, in order (what a "not found" message can list). */
    public List<Path> candidates(ElfFile elf) {
        List<Path> out = new ArrayList<>();
        byte[] id = elf.buildId();
        if (id.length > 1) {
            String hex = HexFormat.of().formatHex(id);
            for (Path root : roots) {
                out.add(root.resolve(".build-id").resolve(hex.substring(0, 2)).resolve(hex.substring(2) + ".debug"));
            }
        }
        Optional<DebugLink> link = debugLink(elf);
        if (link.isPresent() && !link.get().file().contains("/")) {
            Path dir = elf.path().toAbsolutePath().getParent();
            if (dir != null) {
                out.add(dir.resolve(link.get().file()));
                out.add(dir.resolve(".debug").resolve(link.get().file()));
                for (Path root : roots) {
                    out.add(root.resolve(dir.getRoot().relativize(dir))
                            .resolve(link.get().file()));
                }
            }
        }
        return out;
    }

    /** The debug file of {@code elf}, opened; empty when none of the candidates belongs to it. */
    public Optional<ElfFile> open(ElfFile elf) {
        byte[] id = elf.buildId();
        Optional<DebugLink> link = debugLink(elf);
        for (Path p : candidates(elf)) {
            if (!Files.isRegularFile(p) || sameFile(p, elf.path())) continue;
            try {
                ElfFile debug = ElfFile.open(p);
                if (belongs(debug, id, link)) return Optional.of(debug);
            } catch (IOException | RuntimeException e) {
                // not an ELF file, or unreadable: try the next candidate
            }
        }
        return Optional.empty();
    }

    private static boolean belongs(ElfFile debug, byte[] id, Optional<DebugLink> link) throws IOException {
        byte[] debugId = debug.buildId();
        if (id.length > 1 && debugId.length > 1) return Arrays.equals(id, debugId);
        return link.isPresent() && crc32(debug.path()) == link.get().crc();
    }

    private static Optional<DebugLink> debugLink(ElfFile elf) {
        try {
            return elf.debugLink();
        } catch (ElfFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /** The CRC-32 (zlib's, as {@code .gnu_debuglink} stores it) of a file's contents. */
    static int crc32(Path file) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) crc.update(buf, 0, n);
        }
        return (int) crc.getValue();
    }
}
