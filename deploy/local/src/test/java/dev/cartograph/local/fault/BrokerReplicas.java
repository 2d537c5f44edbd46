package dev.cartograph.local.fault;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The broker, as {@value #REPLICAS} replicas in child JVMs ({@code dev.cartograph.broker.BrokerApplication},
 * configured with system properties as {@code deploy/bin/cartograph-broker} would be) electing a leader on
 * the hub Lease. Like a Deployment, a killed replica is replaced by a new one with a new identity, in the same slot:
 * a slot is where a replica runs, with its own link to the hub ({@link Clusters#brokerHubLink}) and to Kafka
 * ({@link KafkaNodes#link}, client {@link #client}). Thread-safe: lifecycle methods are synchronized.
 */
final class BrokerReplicas implements AutoCloseable {
    static final int REPLICAS = 2;
    static final String LEASE = "cartograph-broker";

    private final Clusters clusters;
    private final KafkaNodes kafka;
    private final Path logs;
    private final Classpath classpath;
    private final MachineClocks clocks;
    /** An older build to start a standby of ({@link OldBuild}), when the run has one. */
    private final Optional<Classpath> older;

    private final ChildJvm[] replicas = new ChildJvm[REPLICAS];
    private int started;

    BrokerReplicas(
            Clusters clusters,
            KafkaNodes kafka,
            Path logs,
            Classpath classpath,
            MachineClocks clocks,
            Optional<Classpath> older) {
        this.older = older;
        this.classpath = classpath;
        this.clocks = clocks;
        this.clusters = clusters;
        this.kafka = kafka;
        this.logs = logs;
    }

    /** The Kafka client name of the replica in {@code slot}. */
    static String client(int slot) {
        return "broker-slot-" + slot;
    }

    /** The Kafka client names of every slot. */
    static List<String> clients() {
        return java.util.stream.IntStream.range(0, REPLICAS)
                .mapToObj(BrokerReplicas::client)
                .toList();
    }

    synchronized void startAll() {
        for (int slot = 0; slot < REPLICAS; slot++) {
            if (replicas[slot] == null) {
                startOne(slot);
            }
        }
    }

    private void startOne(int slot) {
        startOne(slot, classpath, "");
    }

    private void startOne(int slot, Classpath build, String suffix) {
        String id = "broker-" + (++started) + suffix;
        Map<String, String> p = new TreeMap<>();
        p.put("micronaut.server.port", "-1");
        p.put("cartograph.broker.id", id);
        p.put("cartograph.broker.bootstrap-servers", kafka.bootstrapServers(client(slot)));
        p.put("cartograph.broker.kubeconfig", clusters.brokerHubKubeconfig(slot).toString());
        p.put("cartograph.broker.lease-namespace", Clusters.SYSTEM_NAMESPACE);
        p.put("cartograph.broker.lease-name", LEASE);
        p.put("cartograph.broker.heartbeat-timeout", FaultSuiteIT.HEARTBEAT_TIMEOUT.toMillis() + "ms");
        p.put("cartograph.broker.failover-timeout", FaultSuiteIT.FAILOVER_TIMEOUT.toMillis() + "ms");
        p.put("cartograph.broker.tick", "250ms");
        p.put("cartograph.broker.topic-replication-factor", "3"); // the defaults, on three Kafka nodes
        p.put("cartograph.broker.topic-min-insync-replicas", "2");
        p.putAll(clocks.property(client(slot))); // a replica started again in its slot: the same machine, its clock
        replicas[slot] =
                ChildJvm.start(id, "dev.cartograph.broker.BrokerApplication", "384m", p, List.of(), logs, build);
    }

    /** The Lease's holder, if a live replica holds it. */
    synchronized Optional<ChildJvm> leader() {
        return leaderSlot().stream().mapToObj(slot -> replicas[slot]).findFirst();
    }

    /** The slot of the Lease's holder, if a live replica holds it. */
    synchronized java.util.OptionalInt leaderSlot() {
        Lease lease = clusters.hub()
                .resources(Lease.class)
                .inNamespace(Clusters.SYSTEM_NAMESPACE)
                .withName(LEASE)
                .get();
        String holder = lease == null || lease.getSpec() == null
                ? null
                : lease.getSpec().getHolderIdentity();
        for (int slot = 0; slot < REPLICAS; slot++) {
            if (replicas[slot] != null && replicas[slot].name().equals(holder) && replicas[slot].alive()) {
                return java.util.OptionalInt.of(slot);
            }
        }
        return java.util.OptionalInt.empty();
    }

    /** SIGKILLs the leader and starts its replacement in its slot; empty if no live replica held the Lease. */
    synchronized Optional<String> killLeader() {
        java.util.OptionalInt slot = leaderSlot();
        if (slot.isEmpty()) {
            return Optional.empty();
        }
        ChildJvm leader = replicas[slot.getAsInt()];
        leader.kill();
        startOne(slot.getAsInt());
        return Optional.of(leader.toString());
    }

    /** SIGKILLs the replica in {@code slot} and starts a new one there (on that slot's machine, so its clock). */
    synchronized String restart(int slot) {
        ChildJvm old = replicas[slot];
        old.kill();
        startOne(slot);
        return old.toString();
    }

    /**
     * SIGKILLs the replica in {@code slot} and starts one of the older build there (a rolling upgrade rolled back, or
     * half done); a replica started in the slot after it is of this build again.
     */
    synchronized String restartOlder(int slot) {
        ChildJvm old = replicas[slot];
        old.kill();
        startOne(
                slot,
                older.orElseThrow(() -> new IllegalStateException("no older build: set -D" + OldBuild.PROPERTY)),
                "-older");
        return old.toString();
    }

    @Override
    public synchronized void close() {
        for (ChildJvm r : replicas) {
            if (r != null) {
                r.kill();
            }
        }
    }
}
