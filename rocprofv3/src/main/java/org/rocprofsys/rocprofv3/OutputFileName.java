package org.rocprofsys.rocprofv3;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * rocprofv3's {@code -o} template for one process: {@code %pid%}, {@code %ppid%},
 * {@code %hostname%}, {@code %env{NAME}%} and their short forms {@code %p}, {@code %h}, as the seed's
 * "output_file" examples use them; other text is kept.
 */
record OutputFileName(int pid, int ppid, String hostname, Map<String, String> environment) {
    private static final Pattern ENV = Pattern.compile("%env\\{([A-Za-z_][A-Za-z0-9_]*)\\}%");

    String expand(String template) {
        Matcher m = ENV.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(environment.getOrDefault(m.group(1), "")));
        }
        m.appendTail(sb);
        return sb.toString()
                .replace("%pid%", Integer.toString(pid))
                .replace("%ppid%", Integer.toString(ppid))
                .replace("%hostname%", hostname)
                .replace("%p", Integer.toString(pid))
                .replace("%h", hostname);
    }
}
