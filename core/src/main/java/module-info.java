/**
 * The event model, the pipeline and launch, the wire from the agent, and the output writers.
 *
 * <p>Its face: what the plugin modules (sources, GPU backends, output formats) build on is exported
 * to all; the writers of the built-in formats and the launch are exported only to the
 * module that assembles them (run) and to the benchmarks, which drive them in process.
 */
module org.rocprofsys.core {
    requires transitive org.rocprofsys.config;
    requires org.rocprofsys.ffm;
    requires com.google.protobuf;
    requires com.fasterxml.jackson.databind;
    requires jdk.unsupported;
    requires java.sql;

    // the plugin face: the SPI (bundles, source providers, the roles of their session parts, the
    // record decoders), the events and GPU events they make, and the output seam
    exports org.rocprofsys.core.spi;
    exports org.rocprofsys.core.event;
    exports org.rocprofsys.core.gpu;
    exports org.rocprofsys.core.output;
    // what a new format reads instead of keeping its own bookkeeping: the call tree, the thread table
    exports org.rocprofsys.core.calltree;
    exports org.rocprofsys.core.tracker;
    // the collector's internals: the agent samples' decoding and timer settings (sampler), held
    // records (sampler), and the benchmarks that drive the collector in process
    exports org.rocprofsys.core.wire to
            org.rocprofsys.sampler,
            org.rocprofsys.benchmarks;
    exports org.rocprofsys.core.pipeline to
            org.rocprofsys.sampler,
            org.rocprofsys.benchmarks;
    // the CPU counter events the call-stack sampler's sources read
    exports org.rocprofsys.core.counters to
            org.rocprofsys.sampler;
    // starting and watching the target: the launchers (rocprof-sys-instrument's runtime mode too)
    exports org.rocprofsys.core.launch to
            org.rocprofsys.instrument,
            org.rocprofsys.run;
    // the built-in output formats: listed by the launcher, driven in process by the benchmarks
    exports org.rocprofsys.core.perfetto to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;
    exports org.rocprofsys.core.timemory to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;
    exports org.rocprofsys.core.rocpd to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;
    exports org.rocprofsys.core.gpu.stats to
            org.rocprofsys.run,
            org.rocprofsys.rocprofv3,
            org.rocprofsys.benchmarks;
    exports org.rocprofsys.core.gpu.counters to
            org.rocprofsys.run,
            org.rocprofsys.benchmarks;
    // the generated Perfetto messages: the ingest-floor benchmark writes packets of its own
    exports org.rocprofsys.core.perfetto.proto to
            org.rocprofsys.benchmarks;

    provides org.rocprofsys.config.avail.AvailCatalog with
            org.rocprofsys.core.timemory.TimemoryCatalog;
}
