/** Unified memory: KFD SMI events read by the collector, and the unified-memory report. */
module org.rocprofsys.unifiedmemory {
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires com.fasterxml.jackson.databind;

    // the module's plugin bundle, registered by the launcher
    exports org.rocprofsys.unifiedmemory to
            org.rocprofsys.run;
    // the source and the output format
    exports org.rocprofsys.unifiedmemory.kfd to
            org.rocprofsys.run;
    exports org.rocprofsys.unifiedmemory.report to
            org.rocprofsys.run;
}
