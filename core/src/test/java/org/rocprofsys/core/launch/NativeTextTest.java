package org.rocprofsys.core.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NativeTextTest {
    private static final byte[] RAW_FILE = {'f', 'i', 'l', 'e', (byte) 0xe9, '.', 't', 'x', 't'};

    private static byte[] nulSeparated(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
            out.write(0);
        }
        return out.toByteArray();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String decoded(byte[] raw) {
        return new String(raw, NativeText.charset());
    }

    @Test
    void theCommandsWordsGetTheBytesOfTheArgumentsTheyCameFrom() {
        NativeText text = NativeText.of(
                nulSeparated(b("java"), b("-cp"), b("x"), b("Main"), b("--"), b("cat"), RAW_FILE), new byte[0]);
        List<byte[]> argv = text.command(List.of("cat", decoded(RAW_FILE)));
        assertArrayEquals(b("cat"), argv.get(0));
        assertArrayEquals(RAW_FILE, argv.get(1));
        assertFalse(NativeText.representable(decoded(RAW_FILE), RAW_FILE), "a lossy decoding is told apart");
    }

    @Test
    void wordsALauncherInsertedAreEncodedAndTheRestStillMatch() {
        NativeText text = NativeText.of(
                nulSeparated(b("java"), b("Main"), b("--launcher"), b("mpirun"), b("--"), b("cat"), RAW_FILE),
                new byte[0]);
        List<byte[]> argv = text.command(List.of("mpirun", "/opt/bin/rocprof-sys-run", "--", "cat", decoded(RAW_FILE)));
        assertArrayEquals(RAW_FILE, argv.get(4));
        assertArrayEquals(b("/opt/bin/rocprof-sys-run"), argv.get(1));
        assertArrayEquals(b("mpirun"), argv.get(0));
    }

    @Test
    void anUnchangedVariableKeepsItsBytesAChangedOneIsEncoded() {
        byte[] homeEntry = concat(b("HOME=/home/"), new byte[] {(byte) 0xff});
        NativeText text = NativeText.of(new byte[0], nulSeparated(homeEntry, b("PATH=/bin")));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", decoded(concat(b("/home/"), new byte[] {(byte) 0xff})));
        env.put("PATH", "/usr/bin:/bin");
        List<byte[]> out = text.environment(env);
        assertArrayEquals(homeEntry, out.get(0));
        assertArrayEquals(b("PATH=/usr/bin:/bin"), out.get(1));
        assertArrayEquals(concat(b("/home/"), new byte[] {(byte) 0xff}), text.settingBytes("HOME", env.get("HOME")));
        assertEquals(2, out.size());
        assertTrue(NativeText.representable("PATH=/bin", b("PATH=/bin")));
    }

    private static byte[] concat(byte[] a, byte[] c) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + c.length);
        System.arraycopy(c, 0, out, a.length, c.length);
        return out;
    }
}
