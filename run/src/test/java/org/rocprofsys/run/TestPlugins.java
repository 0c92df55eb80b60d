package org.rocprofsys.run;

import java.util.List;
import java.util.stream.Stream;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.run.testvendor.TestGpuPlugin;

/** The tests' registration list: the built-in bundles, then the test-only ones, one line each. */
public final class TestPlugins {
    private TestPlugins() {}

    public static final List<Plugin> ALL = Stream.concat(
                    BuiltinPlugins.ALL.stream(),
                    Stream.of(
                            TestGpuPlugin.INSTANCE // the test-only GPU vendor (package testvendor)
                            ))
            .toList();
}
