package org.rocprofsys.config.proc;

/** {@code /proc/<pid>/net/dev} summed over the interfaces other than loopback. */
public record NetDev(long receiveBytes, long transmitBytes) {
    public static NetDev parse(String text) {
        long rx = 0;
        long tx = 0;
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.substring(0, colon).strip().equals("lo")) {
                continue;
            }
            String[] f = line.substring(colon + 1).strip().split("\\s+");
            if (f.length >= 9) {
                rx += number(f[0]);
                tx += number(f[8]);
            }
        }
        return new NetDev(rx, tx);
    }

    private static long number(String s) {
        try {
            return s.isEmpty() ? 0 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
