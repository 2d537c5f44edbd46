package dev.cartograph.mock.seed;

import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.fleet.SimulatedNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Makes a (mock) member cluster look like a {@link ClusterProfile}: one Ready Node per simulated
 * node, and for each node with used GPUs one Running pod in namespace {@value SeedObjects#PREEXISTING}
 * bound to it, requesting those GPUs. Idempotent: objects are created, or updated when they exist,
 * never duplicated. Uses only create and update, which the fabric8 CRUD mock and real API servers
 * both support. Thread-safe if the client is.
 */
public final class FleetSeeder {
    private final SeedObjects objects;

    public FleetSeeder(Clock clock) {
        this.objects = new SeedObjects(Objects.requireNonNull(clock, "clock"));
    }

    /** Seeds {@code member} with {@code cluster}'s nodes and pre-existing pods, stamped with the system clock. */
    public static Seeded seed(KubernetesClient member, ClusterProfile cluster) {
        return new FleetSeeder(Clock.systemUTC()).seedCluster(member, cluster);
    }

    /** What was written: every node and pre-existing pod, as stored. */
    public record Seeded(List<Node> nodes, List<Pod> pods) {
        public Seeded {
            nodes = List.copyOf(nodes);
            pods = List.copyOf(pods);
        }
    }

    /** Seeds {@code member} with {@code cluster}'s nodes and pre-existing pods. */
    public Seeded seedCluster(KubernetesClient member, ClusterProfile cluster) {
        List<SimulatedNode> nodes = cluster.nodes();
        List<Node> written =
                nodes.stream().map(n -> upsert(member, objects.node(n))).toList();
        List<SimulatedNode> used = nodes.stream().filter(n -> n.usedGpus() > 0).toList();
        if (!used.isEmpty()) {
            Namespace ns = new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(SeedObjects.PREEXISTING)
                    .withLabels(SeedObjects.MANAGED)
                    .endMetadata()
                    .build();
            upsert(member, ns);
        }
        List<Pod> pods = used.stream()
                .map(n -> upsert(member, objects.preexistingPod(n)))
                .toList();
        return new Seeded(written, pods);
    }

    private static <T extends HasMetadata> T upsert(KubernetesClient client, T object) {
        return client.resource(object).createOr(NonDeletingOperation::update);
    }
}
