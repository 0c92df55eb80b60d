package org.rocprofsys.config.proc;

/** {@code /proc/<pid>/statm}: program size and resident set, in pages; 0 where a field is missing. */
public record Statm(long sizePages, long residentPages) {
    public static Statm parse(String text) {
        String[] f = text.strip().split("\\s+");
        return new Statm(number(f, 0), number(f, 1));
    }

    private static long number(String[] f, int i) {
        if (i >= f.length || f[i].isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(f[i]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
