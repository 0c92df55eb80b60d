/** ROCm tracing: the rocprofiler-sdk tool's records decoded into the GPU event model. */
module org.rocprofsys.rocm {
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.elf;

    // the source, listed by the launcher
    exports org.rocprofsys.rocm.source to
            org.rocprofsys.run;

    provides org.rocprofsys.config.avail.AvailCatalog with
            org.rocprofsys.rocm.counters.RocmCounterCatalog;
}
