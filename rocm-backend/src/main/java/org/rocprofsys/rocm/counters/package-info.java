/** The GPU counters rocprofiler-sdk offers per agent, for rocprof-sys-avail -H. */
package org.rocprofsys.rocm.counters;
