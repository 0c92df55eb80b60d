package org.rocprofsys.config.output;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The {@code *_hash} keys and {@code %m}: lower-case hex MD5 of the value's bytes. */
final class Md5 {
    private Md5() {}

    static String hex(String value) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            return HexFormat.of().formatHex(md.digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            // every Java platform is required to provide MD5
            throw new IllegalStateException(e);
        }
    }
}
