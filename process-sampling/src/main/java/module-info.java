/** Background process sampling: the target's memory, CPU time, I/O, CPU frequency and GPU metrics. */
module org.rocprofsys.processsampling {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;

    // the source, listed by the launcher
    exports org.rocprofsys.processsampling to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;
}
