package org.rocprofsys.core.rocpd;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/** The JSON texts of the rocpd columns that hold JSON (a few flat objects and arrays). */
final class Json {
    private Json() {}

    /** {@code text} as a JSON string literal; null as {@code null}. */
    static String quote(String text) {
        if (text == null) {
            return "null";
        }
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
    }
}
