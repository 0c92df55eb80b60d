package org.rocprofsys.config.file;

import java.util.List;
import java.util.Map;
import org.rocprofsys.config.RawEntry;

/**
 * What one config file holds.
 *
 * @param entries  setting assignments in file order
 * @param exported environment variables the file defines with {@code $env:NAME = VALUE}; they are
 *                 exported to the target unless the environment already has them
 */
public record ConfigFileContents(List<RawEntry> entries, Map<String, String> exported) {}
