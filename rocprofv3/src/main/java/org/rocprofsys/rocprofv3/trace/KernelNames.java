package org.rocprofsys.rocprofv3.trace;

/**
 * A kernel's name as rocprofv3 shows it: demangled (the default), as the runtime gave it
 * ({@code -M}), or truncated ({@code -T}: the bare function name, without return type, template
 * arguments or parameters).
 */
public record KernelNames(boolean truncate, boolean mangled) {

    public String of(String demangled, String mangledName) {
        if (mangled && mangledName != null && !mangledName.isEmpty()) {
            return mangledName;
        }
        return truncate ? truncate(demangled) : demangled;
    }

    /** {@code void addition_kernel<float>(float*, int)} -> {@code addition_kernel}. */
    static String truncate(String name) {
        StringBuilder out = new StringBuilder();
        int angle = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '<') {
                angle++;
            } else if (c == '>') {
                angle = Math.max(0, angle - 1);
            } else if (angle == 0) {
                if (c == '(') {
                    break;
                }
                if (c == ' ') {
                    out.setLength(0); // what came before was the return type
                } else {
                    out.append(c);
                }
            }
        }
        return out.isEmpty() ? name : out.toString();
    }
}
