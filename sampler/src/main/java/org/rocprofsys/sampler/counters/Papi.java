package org.rocprofsys.sampler.counters;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;

/**
 * PAPI (libpapi, Debian's libpapi7.x) through FFM, for what rocprof-sys-avail lists: the preset
 * events ({@code PAPI_TOT_INS} ...), whether each can be counted here, and its description.
 */
public final class Papi {
    static final List<String> LIBRARIES = List.of("libpapi.so.7.1", "libpapi.so.7.0", "libpapi.so.7", "libpapi.so");

    /** PAPI_VER_CURRENT of PAPI 7: PAPI_VERSION_NUMBER(7,0,0,0) & 0xffff0000. */
    static final int VERSION_7 = 7 << 24;

    static final int OK = 0;
    static final int PRESET_MASK = 0x80000000;
    static final int ENUM_EVENTS = 0;
    static final int ENUM_FIRST = 1;
    /** PAPI_MAX_STR_LEN, the size of an event name. */
    static final int NAME_LENGTH = 128;
    /**
     * PAPI_event_info_t: {@code unsigned event_code; char symbol[PAPI_HUGE_STR_LEN = 1024]; char
     * short_descr[PAPI_MIN_STR_LEN = 64]; char long_descr[PAPI_HUGE_STR_LEN]; ...}; PapiTest checks
     * these offsets against papi.h where the header is installed.
     */
    static final long INFO_LONG_DESCR = 4 + 1024 + 64;

    static final long INFO_SIZE = 16 * 1024;

    /** One preset event. */
    public record Preset(String name, boolean available, String description) {}

    private Papi() {}

    /** The presets of the PAPI found here, or empty when there is none (or it does not initialise). */
    public static Optional<List<Preset>> presets() {
        try (Arena arena = Arena.ofConfined()) {
            if (!(OptionalLibrary.load("PAPI", LIBRARIES, arena) instanceof LibraryLoad.Loaded papi)) {
                return Optional.empty();
            }
            MethodHandle init = papi.downcall("PAPI_library_init", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            MethodHandle enumerate =
                    papi.downcall("PAPI_enum_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            MethodHandle toName =
                    papi.downcall("PAPI_event_code_to_name", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
            MethodHandle query = papi.downcall("PAPI_query_event", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            MethodHandle info =
                    papi.downcall("PAPI_get_event_info", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
            int version = (int) init.invokeExact(VERSION_7);
            if (version != VERSION_7) {
                return Optional.empty();
            }
            List<Preset> out = new ArrayList<>();
            MemorySegment code = arena.allocate(JAVA_INT);
            MemorySegment name = arena.allocate(NAME_LENGTH);
            MemorySegment details = arena.allocate(INFO_SIZE, 8);
            code.set(JAVA_INT, 0, PRESET_MASK);
            int rc = (int) enumerate.invokeExact(code, ENUM_FIRST);
            while (rc == OK) {
                int c = code.get(JAVA_INT, 0);
                if ((int) toName.invokeExact(c, name) == OK) {
                    boolean available = (int) query.invokeExact(c) == OK;
                    String description = (int) info.invokeExact(c, details) == OK
                            ? details.getString(INFO_LONG_DESCR).strip()
                            : "";
                    out.add(new Preset(name.getString(0), available, description));
                }
                rc = (int) enumerate.invokeExact(code, ENUM_EVENTS);
            }
            return Optional.of(out);
        } catch (Throwable t) {
            if (t instanceof Error e && !(e instanceof UnsatisfiedLinkError)) {
                throw e;
            }
            return Optional.empty();
        }
    }
}
