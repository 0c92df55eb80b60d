package org.rocprofsys.core.perfetto;

/**
 * Event names to their iids (1, 2, ... in order of first use): open addressing on the names'
 * hashes, so a lookup is two array reads and a comparison, where a HashMap of boxed iids took a
 * node and a Long.
 */
final class NameIids {
    private String[] keys = new String[64];
    private long[] iids = new long[64];
    private int size;

    /** The iid of {@code name}, 0 when it has none. */
    long get(String name) {
        int mask = keys.length - 1;
        for (int i = slot(name, mask); ; i = (i + 1) & mask) {
            String k = keys[i];
            if (k == null) {
                return 0;
            }
            if (k == name || k.equals(name)) {
                return iids[i];
            }
        }
    }

    /** Gives {@code name} (which has none) the next iid. */
    long add(String name) {
        if (2 * (size + 1) > keys.length) {
            String[] oldKeys = keys;
            long[] oldIids = iids;
            keys = new String[2 * oldKeys.length];
            iids = new long[2 * oldKeys.length];
            for (int j = 0; j < oldKeys.length; j++) {
                if (oldKeys[j] != null) {
                    put(oldKeys[j], oldIids[j]);
                }
            }
        }
        long iid = ++size;
        put(name, iid);
        return iid;
    }

    private void put(String name, long iid) {
        int mask = keys.length - 1;
        int i = slot(name, mask);
        while (keys[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = name;
        iids[i] = iid;
    }

    private static int slot(String name, int mask) {
        int h = name.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }
}
