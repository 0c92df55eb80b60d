package org.rocprofsys.instrument.select;

/**
 * One line of the selection log in upstream's words: {@code [<type>][<action>] <reason> :: '<name>'...}.
 *
 * @param level  the verbosity from which upstream prints it
 * @param action "Skipping", "Forcing", "Excluding"
 * @param type   "function" or "module"
 */
public record SelectionMessage(int level, String action, String type, String reason, String name) {
    public String format() {
        return "[" + type + "][" + action + "] " + reason + " :: '" + name + "'...";
    }

    @Override
    public String toString() {
        return format();
    }
}
