/** The CUDA backend's Java side: decoding the agent's CUPTI records into the GPU event model. */
module org.rocprofsys.cuda {
    requires org.rocprofsys.core;

    exports org.rocprofsys.cuda.decode;
}
