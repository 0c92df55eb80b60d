/** Threading runtimes: pthread lock tracing, the OpenMP tool (OMPT) library, Kokkos Tools. */
module org.rocprofsys.threading {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;

    // the source, listed by the launcher
    exports org.rocprofsys.threading to
            org.rocprofsys.run;
}
