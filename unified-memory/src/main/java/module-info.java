/** Unified memory: KFD SMI events read by the collector, and the unified-memory report. */
module org.rocprofsys.unifiedmemory {
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires com.fasterxml.jackson.databind;

    exports org.rocprofsys.unifiedmemory.kfd;
    exports org.rocprofsys.unifiedmemory.report;
}
