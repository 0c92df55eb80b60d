package org.rocprofsys.mpi;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.rocprofsys.elf.ElfFile;

/**
 * The MPI implementations whose ABI a wrapper library is built for: the handles of Open MPI are
 * pointers, those of MPICH (and the MPICH ABI's libmpi.so.12) are ints, so each has its own
 * library, built against its own mpi.h.
 */
public enum MpiImplementation {
    OPEN_MPI("Open MPI", "librocprof-sys-mpi-openmpi.so"),
    MPICH("MPICH", "librocprof-sys-mpi-mpich.so");

    private final String displayName;
    private final String wrapperLibrary;

    MpiImplementation(String displayName, String wrapperLibrary) {
        this.displayName = displayName;
        this.wrapperLibrary = wrapperLibrary;
    }

    public String displayName() {
        return displayName;
    }

    /** The file name of the wrapper library in the distribution's lib/. */
    public String wrapperLibrary() {
        return wrapperLibrary;
    }

    /** The implementation whose library {@code soname} is (a DT_NEEDED entry), if it is one. */
    static Optional<MpiImplementation> ofLibrary(String soname) {
        if (soname.startsWith("libmpich.so") || soname.equals("libmpi.so.12")) {
            return Optional.of(MPICH);
        }
        if (soname.startsWith("libmpi.so.4")) {
            return Optional.of(OPEN_MPI);
        }
        return Optional.empty();
    }

    /** The implementation of the first MPI library among {@code needed}, the program's DT_NEEDED. */
    static Optional<MpiImplementation> ofNeeded(List<String> needed) {
        return needed.stream()
                .map(MpiImplementation::ofLibrary)
                .flatMap(Optional::stream)
                .findFirst();
    }

    /**
     * The implementation {@code program} links directly (its DT_NEEDED); empty for a program that
     * links none, or that is no ELF file (a script).
     */
    public static Optional<MpiImplementation> linkedBy(Path program) {
        try {
            return ofNeeded(ElfFile.open(program).needed());
        } catch (IOException e) { // unreadable, or no ELF file (ElfFormatException)
            return Optional.empty();
        }
    }
}
