/** CUDA tracing: the CUPTI injection library's records decoded into the GPU event model. */
module org.rocprofsys.cuda {
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.elf;

    exports org.rocprofsys.cuda.source;

    provides org.rocprofsys.config.avail.AvailCatalog with
            org.rocprofsys.cuda.counters.CudaMetricCatalog;
}
