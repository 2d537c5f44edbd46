package dev.cartograph.local;

import dev.cartograph.local.kube.MockClusters;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The broker service's configuration in the local fleet, keyed as a deployment's {@code application.yml}
 * would write it: the local Kafka (one broker, so replication 1), the hub's kubeconfig, the fleet's timings,
 * and REST API callers from a static token file (the mock hub reviews no tokens).
 */
final class BrokerProperties {
    private BrokerProperties() {}

    static Map<String, Object> of(FleetOptions options, String bootstrapServers, Path hubKubeconfig, Path tokenFile) {
        Map<String, Object> props = new HashMap<>();
        props.put("micronaut.server.port", options.brokerPort() == 0 ? -1 : options.brokerPort());
        props.put("cartograph.broker.id", "local-broker");
        props.put("cartograph.broker.bootstrap-servers", bootstrapServers);
        props.put("cartograph.broker.topic-prefix", options.topicPrefix());
        props.put("cartograph.broker.kubeconfig", hubKubeconfig.toString());
        props.put(
                "cartograph.broker.heartbeat-timeout",
                options.heartbeatTimeout().toMillis() + "ms");
        props.put(
                "cartograph.broker.failover-timeout", options.failoverTimeout().toMillis() + "ms");
        props.put("cartograph.broker.lease-namespace", MockClusters.SYSTEM_NAMESPACE);
        props.put("cartograph.broker.tick", "250ms");
        props.put("cartograph.broker.topic-replication-factor", 1); // one local Kafka broker
        props.put("cartograph.broker.topic-min-insync-replicas", 1);
        props.put("cartograph.broker.auth-mode", "token-file");
        props.put("cartograph.broker.auth-token-file", tokenFile.toString());
        return props;
    }
}
