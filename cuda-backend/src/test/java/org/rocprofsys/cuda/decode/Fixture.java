package org.rocprofsys.cuda.decode;

import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.spi.WireException;
import org.rocprofsys.core.wire.RingFile;
import org.rocprofsys.core.wire.WireFormat;
import org.rocprofsys.elf.Demangler;

/**
 * A ring file recorded on the GPU device (src/test/resources/org/rocprofsys/cuda/fixtures), read
 * with core's {@link RingFile} and decoded with {@link CudaDecoder}: every record of every ring,
 * in ring order, the CUDA ones decoded, the others counted by type.
 */
record Fixture(
        String name,
        int pid,
        int state,
        int exitCode,
        long initNs,
        long exitNs,
        List<Integer> tids,
        List<Long> drops,
        Map<Integer, Long> recordTypes,
        List<GpuEvent> events,
        Map<String, Long> skipped,
        String stdout,
        String stderr) {

    static Fixture load(String name, Path dir) {
        try {
            Path file = dir.resolve(name + ".ring");
            try (InputStream in = new GZIPInputStream(resource(name + ".ring.gz"))) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            String stdout = new String(resource(name + ".stdout").readAllBytes(), StandardCharsets.UTF_8);
            String stderr = new String(resource(name + ".stderr").readAllBytes(), StandardCharsets.UTF_8);
            try (RingFile f = RingFile.open(file)) {
                List<GpuEvent> events = new ArrayList<>();
                CudaDecoder decoder = new CudaDecoder(f.pid(), Demangler.shared()::demangle, events::add);
                Map<Integer, Long> types = new TreeMap<>();
                List<Integer> tids = new ArrayList<>();
                List<Long> drops = new ArrayList<>();
                for (RingFile.Ring ring : f.rings()) {
                    tids.add(ring.tid());
                    drops.add(ring.dropped());
                    forEachRecord(ring, (type, bytes) -> {
                        types.merge(type, 1L, Long::sum);
                        if (CudaWireRecord.isCuda(type)) {
                            decoder.accept(ring.tid(), bytes);
                        }
                    });
                }
                long end = f.state() == WireFormat.STATE_EXITED ? f.exitMonotonicNs() : Long.MAX_VALUE;
                decoder.finish(end);
                return new Fixture(
                        name,
                        f.pid(),
                        f.state(),
                        f.exitCode(),
                        f.initMonotonicNs(),
                        f.exitMonotonicNs(),
                        tids,
                        drops,
                        types,
                        events,
                        decoder.skipped(),
                        stdout,
                        stderr);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (WireException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each record of {@code ring}, oldest first, pads skipped: its type and its bytes. */
    static void forEachRecord(RingFile.Ring ring, BiConsumer<Integer, MemorySegment> record) {
        MemorySegment data = ring.data();
        for (long tail = ring.tail(), head = ring.head(); tail < head; ) {
            long pos = tail & ring.mask();
            int type = Short.toUnsignedInt(data.get(JAVA_SHORT, pos));
            int size = Short.toUnsignedInt(data.get(JAVA_SHORT, pos + 2));
            if (type == WireFormat.REC_PAD) {
                tail += data.byteSize() - pos;
                continue;
            }
            record.accept(type, data.asSlice(pos, size));
            tail += size;
        }
    }

    private static InputStream resource(String name) {
        InputStream in = Fixture.class.getResourceAsStream("/org/rocprofsys/cuda/fixtures/" + name);
        if (in == null) {
            throw new IllegalArgumentException("no fixture " + name);
        }
        return in;
    }

    <T extends GpuEvent> List<T> all(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends GpuEvent> List<T> all(Class<T> type, Predicate<T> filter) {
        return all(type).stream().filter(filter).toList();
    }

    <T extends GpuEvent> Map<String, Long> count(Class<T> type, java.util.function.Function<T, String> key) {
        return all(type).stream().collect(Collectors.groupingBy(key, TreeMap::new, Collectors.counting()));
    }
}
