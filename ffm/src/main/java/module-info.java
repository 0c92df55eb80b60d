/** The one libc binding and the optional-library loader (FFM; run with native access enabled). */
module org.rocprofsys.ffm {
    exports org.rocprofsys.ffm;
}
