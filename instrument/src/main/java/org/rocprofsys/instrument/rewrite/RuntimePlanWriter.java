package org.rocprofsys.instrument.rewrite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.instrument.area.Area;
import org.rocprofsys.instrument.area.AreaReader;

/**
 * Runtime mode (docs/instrumentation.md, "Runtime mode: the plan file"): the file named by
 * {@code ROCPROFSYS_INSTRUMENT_PLAN} that carries one unapplied area per module:
 * <pre>
 * u64 magic "RSYSPLN1"; u32 version 1; u32 nmodules;
 * per module: u32 path_len; u32 area_size; char path[path_len] (no NUL, zero-padded to 8);
 *             area bytes (zero-padded to 8)
 * </pre>
 */
public final class RuntimePlanWriter {
    private RuntimePlanWriter() {}

    /** "RSYSPLN1" read as a little-endian u64. */
    public static final long MAGIC = 0x314e4c5053595352L;

    public static final int VERSION = 1;

    /**
     * One module of the plan.
     *
     * @param path the module's real path (what the agent compares with {@code realpath} of loaded modules)
     * @param area its area bytes, relocations not applied
     */
    public record Module(String path, byte[] area) {
        public Module {
            if (path.isEmpty() || path.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("bad module path '" + path + "'");
            }
            AreaReader.Decoded d = AreaReader.read(area);
            if (d.applied() || d.areaVaddr() != 0) {
                throw new IllegalArgumentException(path + ": a runtime plan needs an unapplied area");
            }
        }

        /** The module at {@code module} (resolved to its real path; it must exist) with {@code area}. */
        public static Module of(Path module, Area area) throws IOException {
            Path real;
            try {
                real = module.toRealPath();
            } catch (NoSuchFileException e) {
                throw new RewriteException(module + ": no such file", e);
            }
            return new Module(real.toString(), area.bytes());
        }
    }

    /** The plan file's bytes. */
    public static byte[] encode(List<Module> modules) {
        long size = 16;
        List<byte[]> paths = new ArrayList<>();
        for (Module m : modules) {
            byte[] p = m.path().getBytes(StandardCharsets.UTF_8);
            paths.add(p);
            size += 8 + align8(p.length) + align8(m.area().length);
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("plan larger than 2 GiB");
        }
        ByteBuffer b = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putInt(VERSION).putInt(modules.size());
        for (int i = 0; i < modules.size(); i++) {
            byte[] p = paths.get(i);
            byte[] a = modules.get(i).area();
            b.putInt(p.length).putInt(a.length);
            b.put(p).position(b.position() + (align8(p.length) - p.length));
            b.put(a).position(b.position() + (align8(a.length) - a.length));
        }
        return b.array();
    }

    /** Decodes a plan file's bytes (for tests and tools); every area is validated. */
    public static List<Module> decode(byte[] plan) {
        ByteBuffer b = ByteBuffer.wrap(plan).order(ByteOrder.LITTLE_ENDIAN);
        if (plan.length < 16 || b.getLong() != MAGIC || b.getInt() != VERSION) {
            throw new IllegalArgumentException("not a runtime plan of version " + VERSION);
        }
        int n = b.getInt();
        List<Module> mods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (b.remaining() < 8) {
                throw new IllegalArgumentException("plan truncated at module " + i);
            }
            int plen = b.getInt();
            int asize = b.getInt();
            if (plen <= 0 || asize <= 0 || (long) align8(plen) + align8(asize) > b.remaining()) {
                throw new IllegalArgumentException("plan truncated or corrupt at module " + i);
            }
            String path = new String(plan, b.position(), plen, StandardCharsets.UTF_8);
            b.position(b.position() + align8(plen));
            byte[] area = new byte[asize];
            b.get(area).position(b.position() + (align8(asize) - asize));
            mods.add(new Module(path, area));
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("trailing bytes after module " + n);
        }
        return mods;
    }

    /** Writes the plan to {@code file} (a temporary file next to it, renamed when complete). */
    public static void write(Path file, List<Module> modules) throws IOException {
        byte[] bytes = encode(modules);
        try {
            AtomicFile.write(file, bytes);
        } catch (FileWriteException e) {
            throw new RewriteException(e.getMessage(), e);
        }
    }

    private static int align8(int n) {
        return (n + 7) & ~7;
    }
}
