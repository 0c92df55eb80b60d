/**
 * The plugin SPI: what a module contributes to a run, and the one list that registers it.
 *
 * <p>A module contributes a {@link org.rocprofsys.core.spi.Plugin} (the bundle): output formats,
 * {@link org.rocprofsys.core.spi.SourceProvider}s and GPU vendors
 * ({@link org.rocprofsys.core.gpu.GpuVendor}). A source provider turns a run's settings into
 * {@link org.rocprofsys.core.spi.SessionPart}s, each playing one or more roles in the session:
 * {@link org.rocprofsys.core.spi.EventSource} (a thread beside the target),
 * {@link org.rocprofsys.core.spi.ExecGateAttacher} (attaches while the launched process waits before
 * its exec), {@link org.rocprofsys.core.spi.TargetEnvironmentContribution} (variables of the
 * target's environment), {@link org.rocprofsys.core.spi.InterceptStage} (a pipeline stage on the
 * collector thread) and {@link org.rocprofsys.core.spi.RecordDecoder} (the decoder of the ring
 * record types a backend's library writes). {@link org.rocprofsys.core.spi.Plugins} puts the bundles
 * of one registration list together (run's {@code BuiltinPlugins.ALL}, one line per bundle, like
 * Perfetto's {@code builtin_trace_importers.h}).
 */
package org.rocprofsys.core.spi;
