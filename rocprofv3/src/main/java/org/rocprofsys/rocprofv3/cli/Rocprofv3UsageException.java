package org.rocprofsys.rocprofv3.cli;

/** A command line rocprofv3 cannot run: argparse's message ({@code rocprofv3: error: ...}), exit 2. */
public final class Rocprofv3UsageException extends Exception {
    public static final int EXIT_CODE = 2;

    public Rocprofv3UsageException(String message) {
        super(message);
    }
}
