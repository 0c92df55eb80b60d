package org.rocprofsys.core.timemory;

import java.nio.charset.StandardCharsets;

/**
 * The hashes timemory stores in its call graphs, reproduced bit for bit.
 *
 * <ul>
 * <li>A label's id is {@code std::hash<std::string_view>} of libstdc++ on 64-bit Linux, i.e.
 * {@code _Hash_bytes(data, len, 0xc70f6907)} (a MurmurHash2-64 variant).</li>
 * <li>A call-graph entry's hash is {@code get_combined_hash_id(id, depth)}:
 * {@code lhs ^ (rhs + 0x9e3779b97f4a7c17 + (lhs << 6) + (lhs >> 2))} where {@code depth} is the
 * storage insertion depth (1 for a top-level region; always 1 in a flat profile). A timeline
 * profile combines the result once more with the per-thread insertion counter.</li>
 * <li>The rolling hash of an entry is the wrapping sum of its hash and its ancestors' hashes.</li>
 * </ul>
 *
 * Checked against the hashes in the rocprof-sys documentation's JSON sample (which was produced
 * by the pre-Nov-2022 timemory that used the 32-bit constant {@code 0x9e3779b9}; the newer
 * constant is the one rocprof-sys 1.x ships, see {@code hash/types.hpp}).
 */
final class StdHash {
    private static final long MUL = 0xc6a4a7935bd1e995L;
    private static final long SEED = 0xc70f6907L;
    static final long COMBINE_OFFSET = 0x9e3779b97f4a7c17L;

    private StdHash() {}

    /** libstdc++ {@code std::hash<std::string>} of the UTF-8 bytes of {@code s}. */
    static long of(String s) {
        return hashBytes(s.getBytes(StandardCharsets.UTF_8), SEED);
    }

    static long hashBytes(byte[] b, long seed) {
        int len = b.length;
        int aligned = len & ~7;
        long hash = seed ^ (len * MUL);
        for (int p = 0; p < aligned; p += 8) {
            long data = shiftMix(load(b, p, 8) * MUL) * MUL;
            hash ^= data;
            hash *= MUL;
        }
        if ((len & 7) != 0) {
            long data = load(b, aligned, len & 7);
            hash ^= data;
            hash *= MUL;
        }
        hash = shiftMix(hash) * MUL;
        return shiftMix(hash);
    }

    /** timemory {@code get_combined_hash_id(lhs, rhs)} (std::hash of an integer is the integer). */
    static long combine(long lhs, long rhs) {
        return lhs ^ (rhs + COMBINE_OFFSET + (lhs << 6) + (lhs >>> 2));
    }

    private static long shiftMix(long v) {
        return v ^ (v >>> 47);
    }

    /** Little-endian load of {@code n} bytes (an unaligned 8-byte load, or libstdc++'s load_bytes). */
    private static long load(byte[] b, int off, int n) {
        long r = 0;
        for (int i = n - 1; i >= 0; i--) {
            r = (r << 8) + (b[off + i] & 0xffL);
        }
        return r;
    }
}
