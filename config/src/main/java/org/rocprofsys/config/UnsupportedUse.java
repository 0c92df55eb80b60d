package org.rocprofsys.config;

/**
 * A setting or option given a value this build does not act on.
 *
 * @param name   the setting's environment name, or the option as typed ({@code --process-wait})
 * @param value  the value given
 * @param origin where it came from: "environment", "command line", a config file and line
 */
public record UnsupportedUse(String name, String value, String origin) {

    /** The warning line's text, without the tool's prefix. */
    public String message() {
        String what = name.startsWith("-") ? name + (value.isEmpty() ? "" : " " + value) : name + "=" + value;
        return what + " (" + origin + ") is not supported yet and has no effect";
    }
}
