/** The event model, the pipeline and launch, the wire from the agent, and the output writers. */
module org.rocprofsys.core {
    requires transitive org.rocprofsys.config;
    requires org.rocprofsys.ffm;
    requires com.google.protobuf;
    requires com.fasterxml.jackson.databind;
    requires jdk.unsupported;
    requires java.sql;

    exports org.rocprofsys.core.counters;
    exports org.rocprofsys.core.event;
    exports org.rocprofsys.core.gpu;
    exports org.rocprofsys.core.launch;
    exports org.rocprofsys.core.output;
    exports org.rocprofsys.core.perfetto;
    exports org.rocprofsys.core.pipeline;
    exports org.rocprofsys.core.timemory;
    // the rocpd database format: listed by the launcher
    exports org.rocprofsys.core.rocpd;
    exports org.rocprofsys.core.wire;
    // the plugin SPI: bundles, source providers and the roles of their session parts
    exports org.rocprofsys.core.spi;
    // the GPU statistics format: listed by the launcher
    exports org.rocprofsys.core.gpu.stats;

    provides org.rocprofsys.config.avail.AvailCatalog with
            org.rocprofsys.core.timemory.TimemoryCatalog;
}
