/** The tests' one kit (test scope only): native test programs, processes, the end-to-end base. */
module org.rocprofsys.testkit {
    requires transitive org.junit.jupiter.api;

    exports org.rocprofsys.testkit;
}
