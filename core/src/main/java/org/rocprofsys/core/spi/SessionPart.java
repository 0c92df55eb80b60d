package org.rocprofsys.core.spi;

/**
 * What a {@link SourceProvider} gives a run's session: an object that plays one or more of the
 * roles {@link EventSource}, {@link ExecGateAttacher}, {@link TargetEnvironmentContribution},
 * {@link InterceptStage} and {@link RecordDecoder}. The session asks each role of the parts in the
 * providers' order.
 */
public interface SessionPart {}
