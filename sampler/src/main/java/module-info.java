/** Call-stack sampling: perf events or the agent's samples, unwinding and symbols. */
module org.rocprofsys.sampler {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.elf;
    requires java.management;

    exports org.rocprofsys.sampler.source;

    provides org.rocprofsys.config.avail.AvailCatalog with
            org.rocprofsys.sampler.counters.CpuCounterCatalog;
}
