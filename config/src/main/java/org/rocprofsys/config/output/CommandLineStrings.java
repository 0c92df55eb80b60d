package org.rocprofsys.config.output;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line condensed the way timemory does for {@code %argv%}, {@code %argt%},
 * {@code %args%} and {@code %arg<N>%}: a {@code --} right after the executable is dropped, and
 * each word is trimmed, has '/' turned into '_', then loses its leading '.'s and then its
 * leading '_'s (in that order, so "._.x" keeps a dot: ".x").
 *
 * @param words the cleaned words, argv[0] first; {@code %arg<N>%} indexes this list
 * @param argv  all words joined with '_'
 * @param argt  the tag followed directly by the arguments joined with '_' (no '_' after the tag,
 *              as upstream: "app 10 4" gives "app10_4")
 * @param args  the arguments (argv[1..]) joined with '_'
 */
record CommandLineStrings(List<String> words, String argv, String argt, String args) {
    /** Used when there is no command line at all; upstream falls back to its settings prefix. */
    static final String FALLBACK_TAG = "ROCPROFSYS";

    static CommandLineStrings of(List<String> rawArgv, String tag) {
        List<String> words = new ArrayList<>(rawArgv);
        if (words.size() > 1 && words.get(1).equals("--")) {
            words.remove(1);
        }
        words.replaceAll(CommandLineStrings::clean);

        StringBuilder argv = new StringBuilder();
        StringBuilder args = new StringBuilder();
        for (int i = 0; i < words.size(); i++) {
            if (i > 0) {
                argv.append('_');
            }
            argv.append(words.get(i));
            if (i > 1) {
                args.append('_');
            }
            if (i > 0) {
                args.append(words.get(i));
            }
        }
        return new CommandLineStrings(List.copyOf(words), argv.toString(), tag + args, args.toString());
    }

    /**
     * {@code %tag%}: basename of argv[0] with ".py" / ".exe" removed. Upstream erases the first
     * occurrence plus one more character, so "a.py.x" becomes "ax"; kept for identical names.
     */
    static String tagOf(List<String> argv) {
        if (argv.isEmpty() || argv.getFirst().isEmpty()) {
            return FALLBACK_TAG;
        }
        String tag = argv.getFirst();
        tag = tag.substring(tag.lastIndexOf('\\') + 1);
        tag = tag.substring(tag.lastIndexOf('/') + 1);
        for (String ext : List.of(".py", ".exe")) {
            int at = tag.indexOf(ext);
            if (at >= 0) {
                tag = tag.substring(0, at) + tag.substring(Math.min(tag.length(), at + ext.length() + 1));
            }
        }
        return tag;
    }

    private static String clean(String word) {
        String w = trim(word).replace('/', '_');
        int i = 0;
        while (i < w.length() && w.charAt(i) == '.') {
            i++;
        }
        while (i < w.length() && w.charAt(i) == '_') {
            i++;
        }
        return w.substring(i);
    }

    private static String trim(String s) {
        int b = 0;
        int e = s.length();
        while (b < e && isSpace(s.charAt(b))) {
            b++;
        }
        while (e > b && isSpace(s.charAt(e - 1))) {
            e--;
        }
        return s.substring(b, e);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }
}
