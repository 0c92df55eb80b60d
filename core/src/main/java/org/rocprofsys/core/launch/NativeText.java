package org.rocprofsys.core.launch;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes the user gave this JVM, for the program it launches. The JVM decodes its argv and
 * environment with sun.jnu.encoding, which loses every byte that is not valid in it (any non-ASCII
 * byte in the C locale, invalid UTF-8 in a UTF-8 locale) and cannot be overridden; a shell passes
 * such bytes through, so must we. The kernel still has them: /proc/self/cmdline and
 * /proc/self/environ. A string the launcher passes on unchanged is given its original bytes; a
 * string it made (the agent's LD_PRELOAD, a launcher word) is encoded as the JVM would.
 */
final class NativeText {
    private static final Charset JNU = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));

    /** How far back a word is looked for past the last match: a launcher inserts a few words. */
    private static final int SEARCH_WINDOW = 64;

    private final List<byte[]> arguments;
    private final List<String> decodedArguments;
    /** Each environment entry's bytes by its decoded {@code NAME=value}; the first of a name wins, as getenv's. */
    private final Map<String, byte[]> environment;

    private NativeText(List<byte[]> arguments, Map<String, byte[]> environment) {
        this.arguments = arguments;
        this.decodedArguments = arguments.stream().map(a -> new String(a, JNU)).toList();
        this.environment = environment;
    }

    /** This JVM's; empty (everything encoded) where /proc cannot be read. */
    static NativeText ofThisProcess() {
        return of(read("/proc/self/cmdline"), read("/proc/self/environ"));
    }

    /** From the NUL-separated bytes of a command line and an environment (as /proc gives them). */
    static NativeText of(byte[] cmdline, byte[] environ) {
        Map<String, byte[]> env = new HashMap<>();
        for (byte[] entry : split(environ)) {
            env.putIfAbsent(new String(entry, JNU), entry);
        }
        return new NativeText(split(cmdline), env);
    }

    private static byte[] read(String path) {
        try {
            return Files.readAllBytes(Path.of(path));
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private static List<byte[]> split(byte[] nulSeparated) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < nulSeparated.length; i++) {
            if (nulSeparated[i] == 0) {
                out.add(Arrays.copyOfRange(nulSeparated, start, i));
                start = i + 1;
            }
        }
        if (start < nulSeparated.length) {
            out.add(Arrays.copyOfRange(nulSeparated, start, nulSeparated.length));
        }
        return out;
    }

    /**
     * The command's bytes. Its words are matched from the end against this JVM's argv (the target
     * command is its last words; a launcher's inserted words are skipped): a word equal to the
     * decoding of an argument gets that argument's bytes.
     */
    List<byte[]> command(List<String> command) {
        byte[][] out = new byte[command.size()][];
        int j = arguments.size() - 1;
        for (int i = command.size() - 1; i >= 0; i--) {
            String word = command.get(i);
            int k = j;
            while (k >= 0 && j - k < SEARCH_WINDOW && !decodedArguments.get(k).equals(word)) {
                k--;
            }
            if (k >= 0 && j - k < SEARCH_WINDOW) {
                out[i] = arguments.get(k);
                j = k - 1;
            } else {
                out[i] = encode(word);
            }
        }
        return List.of(out);
    }

    /** The environment's bytes: an entry the JVM was given keeps its bytes. */
    List<byte[]> environment(Map<String, String> env) {
        List<byte[]> out = new ArrayList<>(env.size());
        env.forEach((name, value) -> {
            String entry = name + "=" + value;
            byte[] raw = environment.get(entry);
            out.add(raw != null ? raw : encode(entry));
        });
        return out;
    }

    /** Whether {@code text} names the same bytes as {@code raw}: then Java's file APIs can use it. */
    static boolean representable(String text, byte[] raw) {
        return Arrays.equals(encode(text), raw);
    }

    /**
     * The bytes of a setting's {@code value}: those of the variable {@code name} when the JVM was
     * given it with that value, else those of an argument that decodes to it (an option's value).
     */
    byte[] settingBytes(String name, String value) {
        byte[] raw = environment.get(name + "=" + value);
        if (raw != null) {
            return Arrays.copyOfRange(raw, name.length() + 1, raw.length);
        }
        return argumentBytes(value);
    }

    /** The bytes of the last argument of this JVM that decodes to {@code value}, else its encoding. */
    byte[] argumentBytes(String value) {
        for (int i = decodedArguments.size() - 1; i >= 0; i--) {
            if (decodedArguments.get(i).equals(value)) {
                return arguments.get(i);
            }
        }
        return encode(value);
    }

    static Charset charset() {
        return JNU;
    }

    static byte[] encode(String s) {
        return s.getBytes(JNU);
    }
}
