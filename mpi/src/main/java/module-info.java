/** MPI: the wrapper library chosen per program, its rank records, the comm_data counters. */
module org.rocprofsys.mpi {
    requires org.rocprofsys.core;
    requires org.rocprofsys.elf;
    requires org.rocprofsys.ffm;

    // the module's plugin bundle, registered by the launcher
    exports org.rocprofsys.mpi to
            org.rocprofsys.run;
}
