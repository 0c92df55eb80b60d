package org.rocprofsys.mpi;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.rocprofsys.config.output.LauncherRank;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.RecordDecoder;
import org.rocprofsys.core.spi.RecordFields;

/**
 * Decodes the wrapper library's MPI_RANK records (rocprofsys_wire.h): each becomes an instant
 * {@code MPI rank <r> of <size>} (category mpi) on the thread that learnt it. The outputs are named
 * by the launcher's rank ({@link LauncherRank}), known before the program starts; a record that
 * disagrees with it is said once, since the files then carry the launcher's number.
 */
final class MpiRankRecords implements RecordDecoder {
    static final int REC_MPI_RANK = 27;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final PrintStream log;
    private final OptionalInt launcherRank;

    /** @param launcherRank the rank in the target's environment, which names the outputs */
    MpiRankRecords(PrintStream log, OptionalInt launcherRank) {
        this.log = log;
        this.launcherRank = launcherRank;
    }

    @Override
    public BackendRecords open(int pid, Consumer<TraceEvent> out) {
        return BackendRecords.decoding(pid, type -> type == REC_MPI_RANK, () -> new BackendRecords.Decoder() {
            private boolean said;

            @Override
            public void accept(int tid, MemorySegment record) {
                MemorySegment r = RecordFields.sized(record);
                RecordFields.need(r, 24, "MPI_RANK");
                long time = r.get(U64, 8);
                int rank = r.get(I32, 16);
                int size = r.get(I32, 20);
                out.accept(new Mark(time, pid, tid, "MPI rank " + rank + " of " + size, Category.MPI));
                if (!said && launcherRank.isPresent() && launcherRank.getAsInt() != rank) {
                    said = true;
                    log.println("[rocprof-sys][mpi] pid " + pid + " is MPI rank " + rank + " of " + size
                            + " but its launcher said rank " + launcherRank.getAsInt()
                            + ": its outputs carry the launcher's number");
                }
            }

            @Override
            public void finish(long endNs) {}
        });
    }
}
