package org.rocprofsys.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.BackendRecords;

class MpiRankRecordsTest {
    @Test
    void theWireHeaderNumbersTheRecordAsTheDecoderClaimsIt() throws Exception {
        Path header = Path.of(System.getProperty("user.dir")).resolve("../agent/src/main/c/rocprofsys_wire.h");
        assertTrue(Files.readString(header).contains("#define RSYS_REC_MPI_RANK " + MpiRankRecords.REC_MPI_RANK + "u"));
    }

    @Test
    void aRankRecordIsAnInstantAndADisagreementIsSaidOnce() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<TraceEvent> out = new ArrayList<>();
        BackendRecords records = new MpiRankRecords(
                        new PrintStream(log, true, StandardCharsets.UTF_8), OptionalInt.of(0))
                .open(42, out::add);
        assertTrue(records.owns(27));
        assertTrue(!records.owns(26));
        records.accept(43, record(1000, 1, 2));
        records.accept(43, record(2000, 1, 2));
        assertEquals(
                List.of(
                        new Mark(1000, 42, 43, "MPI rank 1 of 2", Category.MPI),
                        new Mark(2000, 42, 43, "MPI rank 1 of 2", Category.MPI)),
                out);
        String said = log.toString(StandardCharsets.UTF_8);
        assertEquals(1, said.lines().count(), said);
        assertTrue(said.contains("pid 42 is MPI rank 1 of 2 but its launcher said rank 0"), said);
    }

    private static MemorySegment record(long time, int rank, int size) {
        ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 27)
                .putShort((short) 24)
                .putInt(0)
                .putLong(time)
                .putInt(rank)
                .putInt(size);
        // the rings are native memory, aligned to 8
        MemorySegment seg = Arena.ofAuto().allocate(24, 8);
        seg.copyFrom(MemorySegment.ofArray(b.array()));
        return seg;
    }
}
