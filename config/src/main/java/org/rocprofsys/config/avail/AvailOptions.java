package org.rocprofsys.config.avail;

import java.util.List;
import org.rocprofsys.config.file.ConfigFileFormat;

/** The parsed options of rocprof-sys-avail. */
record AvailOptions(
        boolean settings,
        boolean components,
        boolean hardwareCounters,
        boolean all,
        boolean advanced,
        boolean listCategories,
        boolean listKeys,
        boolean expandKeys,
        boolean availableOnly,
        NameFilter nameFilter,
        NameFilter categoryFilter,
        NameFilter positionalFilter,
        boolean brief,
        boolean description,
        boolean stringIds,
        boolean value,
        boolean fileName,
        boolean showCategories,
        CategorySelection categories,
        int columnWidth,
        int maxTotalWidth,
        TableFormat format,
        String csvSeparator,
        String generateConfig,
        List<ConfigFileFormat> configFormats,
        String outputFile,
        String tag,
        boolean force) {

    /** Whether any table is to be printed; actions such as -G alone print none. */
    boolean anyTable() {
        return settings || components || hardwareCounters;
    }
}
