/** Binary instrumentation: function selection, the instrumentation plan, the ELF rewriter. */
module org.rocprofsys.instrument {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.elf;

    exports org.rocprofsys.instrument.capstone;
    exports org.rocprofsys.instrument.cli;
    exports org.rocprofsys.instrument.plan;
    exports org.rocprofsys.instrument.rewrite;
    exports org.rocprofsys.instrument.select;
}
