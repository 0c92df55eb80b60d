package org.rocprofsys.core.timemory;

import java.util.HashSet;
import java.util.Set;

/**
 * A compact JSON writer that writes what timemory's cereal {@code MinimalJSONOutputArchive}
 * (rapidjson {@code Writer}, no whitespace) writes: rapidjson string escapes, unsigned 64-bit
 * hashes, doubles through {@link NumberText#json}, and cereal's {@code "cereal_class_version":0}
 * as the first member of the first object of each versioned class.
 */
final class JsonOut {
    private final StringBuilder out = new StringBuilder(1 << 12);
    private final Set<String> versioned = new HashSet<>();
    /** Per nesting level: whether the next value needs a comma. */
    private boolean[] comma = new boolean[64];

    private int level;

    JsonOut beginObject() {
        separator();
        out.append('{');
        push();
        return this;
    }

    /** An object of a versioned class: cereal registers the version on the class's first use. */
    JsonOut beginObject(String versionedClass) {
        beginObject();
        if (versioned.add(versionedClass)) {
            name("cereal_class_version").value(0);
        }
        return this;
    }

    JsonOut endObject() {
        level--;
        out.append('}');
        return this;
    }

    JsonOut beginArray() {
        separator();
        out.append('[');
        push();
        return this;
    }

    JsonOut endArray() {
        level--;
        out.append(']');
        return this;
    }

    JsonOut name(String name) {
        separator();
        string(name);
        out.append(':');
        comma[level] = false;
        return this;
    }

    JsonOut value(String s) {
        separator();
        string(s);
        return this;
    }

    JsonOut value(long v) {
        separator();
        out.append(v);
        return this;
    }

    JsonOut unsigned(long v) {
        separator();
        out.append(Long.toUnsignedString(v));
        return this;
    }

    JsonOut value(double v) {
        separator();
        out.append(NumberText.json(v));
        return this;
    }

    JsonOut value(boolean b) {
        separator();
        out.append(b);
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private void push() {
        level++;
        if (level >= comma.length) {
            comma = java.util.Arrays.copyOf(comma, comma.length * 2);
        }
        comma[level] = false;
    }

    private void separator() {
        if (comma[level]) {
            out.append(',');
        }
        comma[level] = true;
    }

    /** rapidjson's escapes: quote, backslash, \b \f \n \r \t, other control characters as backslash-u00XX. */
    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00")
                                .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                                .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
