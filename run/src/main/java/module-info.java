/** The launchers (rocprof-sys-run, -sample, -python, -instrument) and the assembled distribution. */
module org.rocprofsys.run {
    requires org.rocprofsys.config;
    requires org.rocprofsys.core;
    requires org.rocprofsys.ffm;
    requires org.rocprofsys.sampler;
    requires org.rocprofsys.instrument;
    requires org.rocprofsys.processsampling;
    requires org.rocprofsys.python;
    requires org.rocprofsys.threading;
    requires org.rocprofsys.cuda;
    requires org.rocprofsys.rocm;
    requires org.rocprofsys.unifiedmemory;
    requires org.rocprofsys.mpi;
    requires org.rocprofsys.rocprofv3;
}
