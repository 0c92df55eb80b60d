/**
 * The performance-budget benchmarks (JMH and end-to-end; benchmarks/run.sh). A tool, not a
 * library: it exports nothing and runs from the class path, like the distribution. JMH's
 * generated stubs land in this module's {@code jmh_generated} packages and are compiled with it.
 */
module org.rocprofsys.benchmarks {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;
    requires org.rocprofsys.elf;
    requires org.rocprofsys.sampler;
    requires org.rocprofsys.instrument;
    requires org.rocprofsys.processsampling;
    requires org.rocprofsys.cuda;
    requires com.google.protobuf;
    requires jmh.core;
    requires jdk.management;
}
