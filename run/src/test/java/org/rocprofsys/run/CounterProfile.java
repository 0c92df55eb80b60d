package org.rocprofsys.run;

/** The settings of a run that profiles timemory components and CPU events alone. */
final class CounterProfile {
    private CounterProfile() {}

    /**
     * NAME, VALUE pairs: the profile on, the trace as {@code trace} says, no call-stack or process
     * sampling, these timemory {@code components} and CPU {@code events}.
     */
    static String[] settings(boolean trace, String components, String events) {
        return new String[] {
            "ROCPROFSYS_TRACE",
            trace ? "ON" : "OFF",
            "ROCPROFSYS_PROFILE",
            "ON",
            "ROCPROFSYS_USE_SAMPLING",
            "OFF",
            "ROCPROFSYS_USE_PROCESS_SAMPLING",
            "OFF",
            "ROCPROFSYS_TIMEMORY_COMPONENTS",
            components,
            "ROCPROFSYS_PAPI_EVENTS",
            events
        };
    }
}
