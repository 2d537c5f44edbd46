package dev.cartograph.broker.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.util.List;

/**
 * {@code cartograph.topology.*}, bound once at start (or {@code CARTOGRAPH_TOPOLOGY_LEVELS}): {@code levels}, the node
 * label keys whose values are the fleet view's topology domains, widest first, comma separated.
 */
@ConfigurationProperties("cartograph.topology")
public record TopologyProperties(
        @Bindable(defaultValue = TopologyProperties.DEFAULT_LEVELS)
        List<String> levels) {
    /** {@code TopologyLevels.DEFAULT} as configured (an annotation needs a constant). */
    static final String DEFAULT_LEVELS = "topology.kubernetes.io/zone,cartograph.dev/rack,nvidia.com/gpu.clique";
}
