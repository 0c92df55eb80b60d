package org.rocprofsys.run.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One change rocprof-sys-run makes to the environment of the command it launches (upstream's
 * {@code update_env} / {@code remove_env} in {@code source/lib/core/argparse.cpp}).
 *
 * @param name  the variable
 * @param value the value; ignored (may be null) for {@link Mode#REMOVE}
 * @param mode  how the value combines with what the variable holds at that point
 */
public record EnvUpdate(String name, String value, Mode mode) {

    /** The update modes, applied in order against the current environment (which starts as the inherited one). */
    public enum Mode {
        /** Set the variable. */
        REPLACE,
        /**
         * Put the value in front of the current one, joined with {@code :}; nothing happens when the
         * current value already contains it. Sets the variable when it is unset.
         */
        PREPEND,
        /** Like {@link #PREPEND} but behind the current value. */
        APPEND,
        /**
         * Set the variable only if it is unset or still holds its inherited value: a value that an
         * earlier update (or nothing but the inherited environment) changed is kept.
         */
        WEAK,
        /**
         * Undo: drop the variable, and give it back its inherited value if it had one (upstream
         * {@code remove_env}). Not counted as an update for the printed list.
         */
        REMOVE
    }

    public EnvUpdate {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mode, "mode");
        if (mode != Mode.REMOVE) {
            Objects.requireNonNull(value, "value");
        }
    }

    public static EnvUpdate replace(String name, String value) {
        return new EnvUpdate(name, value, Mode.REPLACE);
    }

    public static EnvUpdate weak(String name, String value) {
        return new EnvUpdate(name, value, Mode.WEAK);
    }

    public static EnvUpdate prepend(String name, String value) {
        return new EnvUpdate(name, value, Mode.PREPEND);
    }

    public static EnvUpdate append(String name, String value) {
        return new EnvUpdate(name, value, Mode.APPEND);
    }

    public static EnvUpdate remove(String name) {
        return new EnvUpdate(name, null, Mode.REMOVE);
    }

    /**
     * Applies {@code updates} in order to a copy of {@code inherited} and returns the result (the
     * inherited map is not changed). {@code inherited} is both the starting environment and the
     * reference for {@link Mode#WEAK} and {@link Mode#REMOVE}.
     */
    public static Map<String, String> applyAll(Map<String, String> inherited, List<EnvUpdate> updates) {
        Map<String, String> current = new LinkedHashMap<>(inherited);
        for (EnvUpdate u : updates) {
            u.applyTo(current, inherited);
        }
        return current;
    }

    /** Applies this update to {@code current}; {@code inherited} is the environment the launcher started with. */
    public void applyTo(Map<String, String> current, Map<String, String> inherited) {
        if (mode == Mode.REMOVE) {
            current.remove(name);
            String initial = inherited.get(name);
            if (initial != null) {
                current.put(name, initial);
            }
            return;
        }
        String cur = current.get(name);
        if (cur == null) {
            current.put(name, value);
            return;
        }
        switch (mode) {
            case WEAK -> {
                if (cur.equals(inherited.get(name))) {
                    current.put(name, value);
                }
            }
            case PREPEND -> {
                if (!cur.contains(value)) {
                    current.put(name, value + ":" + cur);
                }
            }
            case APPEND -> {
                if (!cur.contains(value)) {
                    current.put(name, cur + ":" + value);
                }
            }
            default -> current.put(name, value);
        }
    }
}
