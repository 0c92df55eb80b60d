package org.rocprofsys.instrument.select;

/**
 * A demangled C++ signature split into the pieces a label is built from (inventory §6.3):
 * {@code [<return> ]<name>(<parameters>)<qualifiers>}. Plain C names have only a name.
 *
 * @param returnType  present only where the mangling carries it (function templates), else ""
 * @param name        the qualified name without parameters
 * @param parameters  the text inside the parameter parentheses, or null when there are none
 * @param qualifiers  what follows the parameters (" const", " &&", ...), or ""
 */
public record SignatureParts(String returnType, String name, String parameters, String qualifiers) {

    /** Splits a demangled name. Never fails: what it cannot split becomes the name. */
    public static SignatureParts parse(String demangled) {
        String s = demangled;
        String clone = "";
        // GCC clone suffixes come after the signature: "foo(int) [clone .constprop.0]"
        int cloneAt = s.indexOf(" [clone ");
        if (cloneAt > 0) {
            clone = s.substring(cloneAt);
            s = s.substring(0, cloneAt);
        }
        int close = lastTopLevelClose(s);
        if (close < 0) return new SignatureParts("", demangled, null, "");
        int open = matchingOpen(s, close);
        if (open <= 0) return new SignatureParts("", demangled, null, "");
        String head = s.substring(0, open);
        String params = s.substring(open + 1, close);
        String quals = s.substring(close + 1) + clone;
        int space = returnTypeSplit(head);
        String ret = space > 0 ? head.substring(0, space) : "";
        String name = space > 0 ? head.substring(space + 1) : head;
        return new SignatureParts(ret, name, params, quals);
    }

    /** The ')' that closes the parameter list: the last one at bracket depth 0. */
    private static int lastTopLevelClose(String s) {
        int angle = 0;
        for (int i = s.length() - 1; i >= 0; i--) {
            char c = s.charAt(i);
            if (c == '>') angle++;
            else if (c == '<') angle--;
            else if (c == ')' && angle == 0) return i;
        }
        return -1;
    }

    private static int matchingOpen(String s, int close) {
        int depth = 0;
        for (int i = close; i >= 0; i--) {
            char c = s.charAt(i);
            if (c == ')') depth++;
            else if (c == '(') {
                depth--;
                if (depth == 0) return i;
            }
        }
        return -1;
    }

    /**
     * Where a template function's return type ends: the last space at depth 0 that is not part of
     * an operator name ("operator new", "operator delete[]") or "(anonymous namespace)".
     */
    private static int returnTypeSplit(String head) {
        int depth = 0;
        for (int i = head.length() - 1; i >= 0; i--) {
            char c = head.charAt(i);
            if (c == '>' || c == ')' || c == ']') depth++;
            else if (c == '<' || c == '(' || c == '[') depth--;
            else if (c == ' ' && depth == 0) {
                String before = head.substring(0, i);
                if (before.endsWith("operator")) continue;
                return i;
            }
        }
        return -1;
    }

    /** name + "(parameters)" + qualifiers; the name alone when there were no parameters. */
    public String nameWithParameters() {
        return parameters == null ? name : name + "(" + parameters + ")" + qualifiers;
    }
}
