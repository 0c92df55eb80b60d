/** Binary instrumentation: function selection, the instrumentation plan, the ELF rewriter. */
module org.rocprofsys.instrument {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.elf;

    // rocprof-sys-instrument's command line and the rewriter's note reader: the launchers
    exports org.rocprofsys.instrument.cli to
            org.rocprofsys.run;
    exports org.rocprofsys.instrument.rewrite to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;
    // the planner's parts, driven in process by the instrumentation benchmark
    exports org.rocprofsys.instrument.capstone to
            org.rocprofsys.benchmarks;
    exports org.rocprofsys.instrument.plan to
            org.rocprofsys.benchmarks;
    exports org.rocprofsys.instrument.select to
            org.rocprofsys.benchmarks;
}
