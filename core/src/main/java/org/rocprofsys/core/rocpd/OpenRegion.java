package org.rocprofsys.core.rocpd;

import java.util.List;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionMetrics;

/** A region begun on a thread and not yet ended: what its row needs from the begin. */
record OpenRegion(long nameId, long start, Category category, List<Annotation> annotations, RegionMetrics metrics) {}
