package org.rocprofsys.unifiedmemory.kfd;

import java.util.Optional;

/**
 * Reads one KFD SMI event line ({@link KfdEvent}). Events the report does not use (process
 * start/end, VM faults, thermal throttling, GPU resets) give an empty result; a line of a known
 * event that does not follow the kernel's format is an error.
 */
public final class KfdEventParser {
    static final int MIGRATE_START = 5;
    static final int MIGRATE_END = 6;
    static final int PAGE_FAULT_START = 7;
    static final int PAGE_FAULT_END = 8;
    static final int QUEUE_EVICTION = 9;
    static final int QUEUE_RESTORE = 10;
    static final int UNMAP_FROM_GPU = 11;
    static final int DROPPED_EVENT = 14;

    private KfdEventParser() {}

    /**
     * @throws IllegalArgumentException for a line of a known event in no kernel's format
     */
    public static Optional<KfdEvent> parse(String line) {
        Fields f = new Fields(line.strip());
        int id;
        try {
            id = Integer.parseInt(f.word(), 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("KFD event line without an event id: '" + line + "'");
        }
        try {
            KfdEvent event = switch (id) {
                case MIGRATE_START -> {
                    long ns = f.decimal();
                    int pid = f.pid();
                    long[] range = f.range();
                    int[] fromTo = f.arrow();
                    String[] locations = f.word().split(":", -1);
                    if (locations.length != 2) {
                        throw new IllegalArgumentException("prefetch:preferred expected");
                    }
                    yield new KfdEvent.MigrateStart(
                            ns,
                            pid,
                            range[0],
                            range[1],
                            fromTo[0],
                            fromTo[1],
                            Integer.parseUnsignedInt(locations[0], 16),
                            Integer.parseUnsignedInt(locations[1], 16),
                            (int) f.decimal());
                }
                case MIGRATE_END -> {
                    long ns = f.decimal();
                    int pid = f.pid();
                    long[] range = f.range();
                    int[] fromTo = f.arrow();
                    int trigger = (int) f.decimal();
                    int error = f.atEnd() ? 0 : (int) f.decimal();
                    yield new KfdEvent.MigrateEnd(ns, pid, range[0], range[1], fromTo[0], fromTo[1], trigger, error);
                }
                case PAGE_FAULT_START, PAGE_FAULT_END -> {
                    long ns = f.decimal();
                    int pid = f.pid();
                    long[] at = f.range();
                    char c = f.character();
                    if (id == PAGE_FAULT_START) {
                        if (c != 'R' && c != 'W') {
                            throw new IllegalArgumentException("R or W expected");
                        }
                        yield new KfdEvent.PageFaultStart(ns, pid, at[0], (int) at[1], c == 'W');
                    }
                    if (c != 'M' && c != 'U') {
                        throw new IllegalArgumentException("M or U expected");
                    }
                    yield new KfdEvent.PageFaultEnd(ns, pid, at[0], (int) at[1], c == 'M');
                }
                case QUEUE_EVICTION ->
                    new KfdEvent.QueueEviction(f.decimal(), f.pid(), (int) f.hex(), (int) f.decimal());
                case QUEUE_RESTORE ->
                    new KfdEvent.QueueRestore(f.decimal(), f.pid(), (int) f.hex(), f.character() == 'R');
                case UNMAP_FROM_GPU -> {
                    long ns = f.decimal();
                    int pid = f.pid();
                    long[] range = f.range();
                    yield new KfdEvent.UnmapFromGpu(ns, pid, range[0], range[1], (int) f.hex(), (int) f.decimal());
                }
                case DROPPED_EVENT -> new KfdEvent.Dropped(f.decimal(), f.pid(), f.decimal());
                default -> null;
            };
            if (event != null && !f.atEnd()) {
                throw new IllegalArgumentException("unexpected '" + f.rest() + "'");
            }
            return Optional.ofNullable(event);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException(
                    "KFD event line in no kernel format: '" + line + "' (" + e.getMessage() + ")", e);
        }
    }

    /** Space-separated fields of one line. */
    private static final class Fields {
        private final String[] words;
        private int next;

        Fields(String line) {
            this.words = line.isEmpty() ? new String[0] : line.split(" +");
        }

        String word() {
            if (next >= words.length) {
                throw new IllegalArgumentException("line ends early");
            }
            return words[next++];
        }

        boolean atEnd() {
            return next >= words.length;
        }

        String rest() {
            return String.join(" ", java.util.Arrays.copyOfRange(words, next, words.length));
        }

        long decimal() {
            return Long.parseLong(word());
        }

        long hex() {
            return Long.parseUnsignedLong(word(), 16);
        }

        /** {@code -<pid>}. */
        int pid() {
            String w = word();
            if (!w.startsWith("-")) {
                throw new IllegalArgumentException("-<pid> expected, got '" + w + "'");
            }
            return Integer.parseInt(w.substring(1));
        }

        /** {@code @<hex>(<hex>)}: a page and a size in pages, or a page and a node. */
        long[] range() {
            String w = word();
            int open = w.indexOf('(');
            if (!w.startsWith("@") || open < 0 || !w.endsWith(")")) {
                throw new IllegalArgumentException("@address(size) expected, got '" + w + "'");
            }
            return new long[] {
                Long.parseUnsignedLong(w.substring(1, open), 16),
                Long.parseUnsignedLong(w.substring(open + 1, w.length() - 1), 16)
            };
        }

        /** {@code <hex>-><hex>}. */
        int[] arrow() {
            String w = word();
            int arrow = w.indexOf("->");
            if (arrow < 0) {
                throw new IllegalArgumentException("from->to expected, got '" + w + "'");
            }
            return new int[] {
                Integer.parseUnsignedInt(w.substring(0, arrow), 16),
                Integer.parseUnsignedInt(w.substring(arrow + 2), 16)
            };
        }

        char character() {
            String w = word();
            if (w.length() != 1) {
                throw new IllegalArgumentException("one character expected, got '" + w + "'");
            }
            return w.charAt(0);
        }
    }
}
