/** Call-stack sampling: perf events or the agent's samples, unwinding and symbols. */
module org.rocprofsys.sampler {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.elf;
    requires java.management;

    // the sources, listed by the launcher
    exports org.rocprofsys.sampler.source to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;

    provides org.rocprofsys.config.avail.AvailCatalog with
            org.rocprofsys.sampler.counters.CpuCounterCatalog;
}
