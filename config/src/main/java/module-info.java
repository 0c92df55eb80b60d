/** Settings, their files and command lines, output naming, /proc readers and the atomic-file helper. */
module org.rocprofsys.config {
    requires transitive info.picocli;
    requires com.fasterxml.jackson.databind;
    requires java.xml;

    exports org.rocprofsys.config;
    exports org.rocprofsys.config.atomicfile;
    exports org.rocprofsys.config.avail;
    // the tools' command-line help and config-file readers: the launchers and the config writers
    exports org.rocprofsys.config.cli to
            org.rocprofsys.instrument,
            org.rocprofsys.run;
    exports org.rocprofsys.config.file to
            org.rocprofsys.core,
            org.rocprofsys.instrument;
    exports org.rocprofsys.config.output;
    exports org.rocprofsys.config.proc;

    uses org.rocprofsys.config.avail.AvailCatalog;
}
