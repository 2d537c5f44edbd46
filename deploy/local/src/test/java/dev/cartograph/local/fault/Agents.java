package dev.cartograph.local.fault;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One agent per member, each in a child JVM ({@code dev.cartograph.agent.AgentApplication}, configured with
 * system properties as {@code deploy/bin/cartograph-agent} would be). The broker's classes are left off their
 * classpath, as they are off the agent's jar. A killed agent is started again as a new incarnation. Each reaches
 * Kafka through its own {@link KafkaNodes#link} (client: its cluster's name).
 * Thread-safe: lifecycle methods are synchronized.
 */
final class Agents implements AutoCloseable {
    private final Clusters clusters;
    private final KafkaNodes kafka;
    private final Path logs;
    private final Classpath classpath;
    private final MachineClocks clocks;
    private final Map<String, ChildJvm> running = new HashMap<>();
    private final Map<String, Integer> starts = new HashMap<>();

    Agents(Clusters clusters, KafkaNodes kafka, Path logs, Classpath classpath, MachineClocks clocks) {
        this.clusters = clusters;
        this.clocks = clocks;
        this.kafka = kafka;
        this.logs = logs;
        this.classpath = classpath.without("dev.cartograph.broker.config.BrokerFactory");
    }

    synchronized void startAll() {
        clusters.names().forEach(this::start);
    }

    synchronized void start(String cluster) {
        if (running.containsKey(cluster) && running.get(cluster).alive()) {
            throw new IllegalStateException("the agent of " + cluster + " is running");
        }
        int n = starts.merge(cluster, 1, Integer::sum);
        Map<String, String> p = new TreeMap<>();
        p.put("micronaut.server.port", "-1");
        p.put("cartograph.agent.cluster", cluster);
        p.put("cartograph.agent.bootstrap-servers", kafka.bootstrapServers(cluster));
        p.put("cartograph.agent.kubeconfig", clusters.agentKubeconfig(cluster).toString());
        p.put("cartograph.agent.publish-interval", "300ms");
        p.put("cartograph.agent.heartbeat-interval", FaultSuiteIT.HEARTBEAT.toMillis() + "ms");
        p.put("cartograph.agent.create-namespaces", "true");
        p.put("cartograph.agent.topic-replication-factor", "3"); // its own topics, as the brokers' on three Kafka nodes
        p.put("cartograph.agent.topic-min-insync-replicas", "2");
        // fenced before the brokers fail the cluster over, as docs/operations.md asks
        p.put(
                "cartograph.agent.self-fence-after",
                FaultSuiteIT.FAILOVER_TIMEOUT
                                .minus(FaultSuiteIT.HEARTBEAT_TIMEOUT)
                                .toMillis() + "ms");
        clusters.labels(cluster).forEach((k, v) -> p.put("cartograph.agent.labels." + k, v));
        p.putAll(clocks.property(cluster));
        running.put(
                cluster,
                ChildJvm.start(
                        "agent-" + cluster + "-" + n,
                        "dev.cartograph.agent.AgentApplication",
                        "256m",
                        p,
                        List.of(),
                        logs,
                        classpath));
    }

    /** The running agent of {@code cluster}. */
    synchronized ChildJvm of(String cluster) {
        return running.get(cluster);
    }

    /** SIGKILLs the agent of {@code cluster}. */
    synchronized String kill(String cluster) {
        ChildJvm agent = running.remove(cluster);
        agent.kill();
        return agent.toString();
    }

    @Override
    public synchronized void close() {
        running.values().forEach(ChildJvm::kill);
    }
}
