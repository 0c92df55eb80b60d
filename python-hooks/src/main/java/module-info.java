/** The collector side of Python targets (rocprof-sys-python, python3 under rocprof-sys-run). */
module org.rocprofsys.python {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;

    // the source, listed by the launcher
    exports org.rocprofsys.python to
            org.rocprofsys.run;
}
