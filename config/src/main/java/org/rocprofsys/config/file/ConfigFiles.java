package org.rocprofsys.config.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.rocprofsys.config.ConfigException;

/** Reads a config file in the format its extension names: {@code .json}, {@code .xml}, else text. */
public final class ConfigFiles {
    private ConfigFiles() {}

    public static ConfigFileContents read(
            Path file, Map<String, String> environment, Function<String, Optional<String>> settings)
            throws ConfigException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException("Error reading configuration file: " + file + " (" + e.getMessage() + ")");
        }
        String text = text(file, bytes);
        String name = file.toString();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".json")) {
            return JsonConfigReader.read(name, text, environment, settings);
        }
        if (lower.endsWith(".xml")) {
            return XmlConfigReader.read(name, text, environment, settings);
        }
        return CfgFileReader.read(name, text.lines().toList(), environment, settings);
    }

    /** The file as UTF-8 text, or an error that says where it stops being text. */
    private static String text(Path file, byte[] bytes) throws ConfigException {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        int nul = -1;
        for (int i = 0; i < bytes.length && nul < 0; i++) {
            nul = bytes[i] == 0 ? i : -1;
        }
        if (result.isError() || nul >= 0) {
            long at = result.isError() ? in.position() : nul;
            throw new ConfigException("Error reading configuration file: " + file + ": it is not a text file (byte "
                    + at + " is " + (result.isError() ? "not valid UTF-8" : "a NUL") + "); a configuration file"
                    + " holds NAME = value lines, or JSON (.json) or XML (.xml)");
        }
        decoder.flush(out);
        return out.flip().toString();
    }
}
