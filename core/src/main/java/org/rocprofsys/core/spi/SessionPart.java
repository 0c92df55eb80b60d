package org.rocprofsys.core.spi;

import java.util.List;

/**
 * What a {@link SourceProvider} gives a run's session: an object that plays one or more of the
 * roles {@link EventSource}, {@link ExecGateAttacher}, {@link TargetEnvironmentContribution},
 * {@link InterceptStage} and {@link RecordDecoder}. The session asks each role of the parts in the
 * providers' order.
 */
public interface SessionPart {
    /** The parts of {@code parts} that play {@code role}, in their order. */
    static <T> List<T> withRole(List<? extends SessionPart> parts, Class<T> role) {
        return parts.stream().filter(role::isInstance).map(role::cast).toList();
    }
}
