package org.rocprofsys.instrument.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.instrument.plan.InstrumentPlan;

/**
 * Writes {@code <dir>/{available,instrumented,excluded,overlapping}.{txt,json,xml}} (the caller
 * passes {@code <OUTPUT_PATH>/<OUTPUT_PREFIX>instrumentation}). Each file is written to a
 * temporary sibling and renamed into place, so a reader sees a complete file or none. The
 * excluded list carries one more column (txt) or key (json, xml) than upstream's: the reason.
 */
public final class ListFiles {
    private ListFiles() {}

    /** The formats of {@code --print-format}. */
    public enum Format {
        TXT,
        JSON,
        XML;

        public String extension() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Format of(String s) {
            return switch (s) {
                case "txt" -> TXT;
                case "json" -> JSON;
                case "xml" -> XML;
                default -> throw new IllegalArgumentException("unknown print format '" + s + "' (txt, json, xml)");
            };
        }
    }

    /** Writes the given lists of {@code plans} (several modules go into one file) and returns the paths. */
    public static List<Path> write(
            Path dir, Collection<InstrumentPlan> plans, Collection<FunctionList> lists, Collection<Format> formats)
            throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (FunctionList list : lists) {
            var rows = plans.stream().flatMap(p -> list.rows(p).stream()).toList();
            List<String> reasons = list.hasReasons()
                    ? plans.stream().flatMap(p -> list.reasons(p).stream()).toList()
                    : null;
            for (Format f : formats) {
                String text = switch (f) {
                    case TXT -> TextList.render(rows, reasons);
                    case JSON -> JsonList.render(list, rows, reasons);
                    case XML -> XmlList.render(list, rows, reasons);
                };
                Path target = dir.resolve(list.stem() + "." + f.extension());
                AtomicFile.writeString(target, text);
                written.add(target);
            }
        }
        return written;
    }
}
