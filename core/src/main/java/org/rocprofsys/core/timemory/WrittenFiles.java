package org.rocprofsys.core.timemory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.output.WrittenFile;

/** The profiles' files, by kind then label, as {@link WrittenFile}s in that order. */
final class WrittenFiles {
    private WrittenFiles() {}

    static List<WrittenFile> of(Map<String, Map<String, List<Path>>> byKindAndLabel) {
        List<WrittenFile> out = new ArrayList<>();
        byKindAndLabel.forEach((kind, byLabel) ->
                byLabel.forEach((label, files) -> files.forEach(f -> out.add(new WrittenFile(kind, label, f)))));
        return out;
    }
}
