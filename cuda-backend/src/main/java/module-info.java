/** CUDA tracing: the CUPTI injection library's records decoded into the GPU event model. */
module org.rocprofsys.cuda {
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.elf;

    // the source, listed by the launcher
    exports org.rocprofsys.cuda.source to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;

    provides org.rocprofsys.config.avail.AvailCatalog with
            org.rocprofsys.cuda.counters.CudaMetricCatalog;
}
