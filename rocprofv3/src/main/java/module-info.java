/** rocprofv3's front end and formats over the shared session and GPU event model (issue 39). */
module org.rocprofsys.rocprofv3 {
    requires org.rocprofsys.core;
    requires com.fasterxml.jackson.databind;

    // the bundle and the option parser, used by the launcher
    exports org.rocprofsys.rocprofv3 to
            org.rocprofsys.run;
    exports org.rocprofsys.rocprofv3.cli to
            org.rocprofsys.run;
}
