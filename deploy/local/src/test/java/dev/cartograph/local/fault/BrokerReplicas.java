package dev.cartograph.local.fault;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The broker, as {@value #REPLICAS} replicas in child JVMs ({@code dev.cartograph.broker.BrokerApplication},
 * configured with system properties as {@code deploy/bin/cartograph-broker} would be) electing a leader on
 * the hub Lease. Like a Deployment, a killed replica is replaced by a new one with a new identity.
 * Thread-safe: lifecycle methods are synchronized.
 */
final class BrokerReplicas implements AutoCloseable {
    static final int REPLICAS = 2;
    static final String LEASE = "cartograph-broker";

    private final KubernetesClient hub;
    private final Path hubKubeconfig;
    private final String bootstrapServers;
    private final Path logs;
    private final Classpath classpath;
    private final List<ChildJvm> replicas = new ArrayList<>();
    private int started;

    BrokerReplicas(KubernetesClient hub, Path hubKubeconfig, String bootstrapServers, Path logs, Classpath classpath) {
        this.classpath = classpath;
        this.hub = hub;
        this.hubKubeconfig = hubKubeconfig;
        this.bootstrapServers = bootstrapServers;
        this.logs = logs;
    }

    synchronized void startAll() {
        while (replicas.size() < REPLICAS) {
            startOne();
        }
    }

    private void startOne() {
        String id = "broker-" + (++started);
        Map<String, String> p = new TreeMap<>();
        p.put("micronaut.server.port", "-1");
        p.put("cartograph.broker.id", id);
        p.put("cartograph.broker.bootstrap-servers", bootstrapServers);
        p.put("cartograph.broker.kubeconfig", hubKubeconfig.toString());
        p.put("cartograph.broker.lease-namespace", Clusters.SYSTEM_NAMESPACE);
        p.put("cartograph.broker.lease-name", LEASE);
        p.put("cartograph.broker.heartbeat-timeout", FaultSuiteIT.HEARTBEAT_TIMEOUT.toMillis() + "ms");
        p.put("cartograph.broker.failover-timeout", FaultSuiteIT.FAILOVER_TIMEOUT.toMillis() + "ms");
        p.put("cartograph.broker.tick", "250ms");
        p.put("cartograph.broker.topic-replication-factor", "3"); // the defaults, on three Kafka nodes
        p.put("cartograph.broker.topic-min-insync-replicas", "2");
        replicas.add(
                ChildJvm.start(id, "dev.cartograph.broker.BrokerApplication", "384m", p, List.of(), logs, classpath));
    }

    /** The Lease's holder, if a live replica holds it. */
    synchronized Optional<ChildJvm> leader() {
        Lease lease = hub.resources(Lease.class)
                .inNamespace(Clusters.SYSTEM_NAMESPACE)
                .withName(LEASE)
                .get();
        String holder = lease == null || lease.getSpec() == null
                ? null
                : lease.getSpec().getHolderIdentity();
        return replicas.stream()
                .filter(r -> r.name().equals(holder) && r.alive())
                .findFirst();
    }

    /** SIGKILLs the leader and starts its replacement; empty if no live replica held the Lease. */
    synchronized Optional<String> killLeader() {
        Optional<ChildJvm> leader = leader();
        leader.ifPresent(l -> {
            l.kill();
            replicas.remove(l);
            startOne();
        });
        return leader.map(ChildJvm::toString);
    }

    @Override
    public synchronized void close() {
        replicas.forEach(ChildJvm::kill);
    }
}
