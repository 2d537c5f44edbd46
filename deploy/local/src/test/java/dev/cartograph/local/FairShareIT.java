package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.testing.Eventually;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fair share on the local fleet (issue 17), default profile. The A100s are all on gpu-west, free per node by hand:
 * 8, 8, 8, 8, 4, 4, 2, 0 — 42 GPUs, 21 pods of 2 or four of 8. Two teams submitting at once get them in proportion to
 * their weights, and a team under its quota takes back lent GPUs by preempting exactly one gang on one cluster, which
 * runs again when room returns.
 */
@Timeout(420)
class FairShareIT {
    static final ResourceDefinitionContext QUEUES = dev.cartograph.broker.hub.QueueObjects.QUEUES;
    static final String A100 = "NVIDIA-A100-SXM4-80GB";

    @TempDir
    java.nio.file.Path dir;

    /** A PyTorchJob of {@code pods} pods (a master and workers), each asking {@code gpus} A100 GPUs. */
    static GenericKubernetesResource job(LocalFleet fleet, String namespace, String name, int pods, int gpus) {
        String pod = """
                      replicas: %d
                      template:
                        spec:
                          nodeSelector: {nvidia.com/gpu.product: %s}
                          containers:
                            - name: pytorch
                              image: ghcr.io/example/train:1.0
                              resources: {limits: {nvidia.com/gpu: "%d"}}
                """;
        String yaml = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: %s, namespace: %s}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                %s""".formatted(name, namespace, pod.formatted(1, A100, gpus))
                + (pods > 1 ? "    Worker:\n" + pod.formatted(pods - 1, A100, gpus) : "");
        return fleet.hub().client().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    }

    static void queue(LocalFleet fleet, String name, String spec) {
        String yaml = """
                apiVersion: cartograph.dev/v1alpha1
                kind: Queue
                metadata: {name: %s}
                spec: %s
                """.formatted(name, spec);
        KubernetesClient hub = fleet.hub().client();
        hub.genericKubernetesResources(QUEUES)
                .resource(hub.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class))
                .create();
    }

    static LocalFleet started(java.nio.file.Path dir) throws InterruptedException {
        LocalFleet fleet =
                LocalFleet.start(FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(Duration.ofHours(1)));
        Eventually.until(
                Duration.ofSeconds(60),
                () -> fleet.broker().view().active()
                        && fleet.broker().view().fleet().clusters().size() == 3,
                () -> "broker active with 3 clusters");
        for (String ns : List.of("team-a", "team-b")) {
            fleet.hub()
                    .client()
                    .namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .addToLabels("cartograph.dev/federate", "true")
                            .endMetadata()
                            .build())
                    .create();
        }
        return fleet;
    }

    static List<GenericKubernetesResource> jobs(LocalFleet fleet, String namespace) {
        return fleet.hub()
                .client()
                .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                .inNamespace(namespace)
                .list()
                .getItems();
    }

    static String label(GenericKubernetesResource r, String key) {
        Map<String, String> l = r.getMetadata().getLabels();
        return l == null ? "" : l.getOrDefault(key, "");
    }

    static String reason(GenericKubernetesResource r) {
        Map<String, String> a = r.getMetadata().getAnnotations();
        return a == null ? "" : a.getOrDefault("cartograph.dev/reason", "");
    }

    /** Gangs per namespace whose hub object shows them Running. */
    static Map<String, Long> running(LocalFleet fleet) {
        Map<String, Long> out = new TreeMap<>();
        for (String ns : List.of("team-a", "team-b")) {
            out.put(
                    ns,
                    jobs(fleet, ns).stream()
                            .filter(j -> "Running".equals(label(j, "cartograph.dev/phase")))
                            .count());
        }
        return out;
    }

    static void waitForQueues(LocalFleet fleet, int n) throws InterruptedException {
        Eventually.until(
                Duration.ofSeconds(30),
                () -> fleet.broker().view().queues().queues().size() >= n,
                () -> "the broker sees " + n + " queues: "
                        + fleet.broker().view().queues());
    }

    @Test
    void twoTeamsSubmittingAtOnceGetTheA100sTwoToOneAndEveryWaitingGangSaysWhy() throws Exception {
        try (LocalFleet fleet = started(dir)) {
            queue(fleet, "team-a", "{namespaces: [team-a], weight: 2}");
            queue(fleet, "team-b", "{namespaces: [team-b], weight: 1}");
            waitForQueues(fleet, 2);
            // a gang of the default queue holds every free A100 (21 pods × 2) while the teams submit
            KubernetesClient hub = fleet.hub().client();
            hub.resource(job(fleet, "ml", "blocker", 21, 2)).create();
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "Running"
                            .equals(label(
                                    hub.resource(job(fleet, "ml", "blocker", 21, 2))
                                            .get(),
                                    "cartograph.dev/phase")),
                    () -> "the blocker runs");
            for (int i = 1; i <= 21; i++) {
                hub.resource(job(fleet, "team-a", "a" + i, 1, 2)).create();
                hub.resource(job(fleet, "team-b", "b" + i, 1, 2)).create();
            }
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> jobs(fleet, "team-a").stream().allMatch(j -> reason(j).startsWith("waits for capacity"))
                            && jobs(fleet, "team-b").stream()
                                    .allMatch(j -> reason(j).startsWith("waits for capacity")),
                    () -> "all 42 wait for capacity, saying so: "
                            + reason(jobs(fleet, "team-a").get(0)));

            hub.resource(job(fleet, "ml", "blocker", 21, 2)).delete();

            // by hand (progressive filling, 2 GPUs a gang, shares held/42/weight): a gets 14, b 7 — 28 and 14 GPUs
            Eventually.until(
                    Duration.ofSeconds(120),
                    () -> running(fleet).equals(Map.of("team-a", 14L, "team-b", 7L)),
                    () -> "2:1 running: " + running(fleet));
            for (String ns : List.of("team-a", "team-b")) {
                assertThat(jobs(fleet, ns).stream()
                                .filter(j -> !"Running".equals(label(j, "cartograph.dev/phase")))
                                .map(FairShareIT::reason))
                        .as("the waiting gangs of %s say what they wait for", ns)
                        .hasSize(ns.equals("team-a") ? 7 : 14)
                        .allMatch(r -> r.startsWith("waits for capacity") || r.startsWith("waits for quota"));
            }
            // carto usage: each team's GPU time since the hour began, counted while they hold 28 and 14 GPUs
            Thread.sleep(6_000);
            Map<String, Double> usage = cartoUsage(fleet);
            System.out.printf("carto usage, A100 GPU-seconds by queue: %s%n", usage);
            assertThat(usage.get("team-a")).isPositive();
            assertThat(usage.get("team-a") / usage.get("team-b"))
                    .as("GPU-seconds team-a : team-b %s", usage)
                    .isBetween(1.6, 2.4);
        }
    }

    @Test
    void aTeamUnderItsQuotaPreemptsExactlyOneBorrowingGangOnOneClusterWhichRunsAgainWhenRoomReturns() throws Exception {
        try (LocalFleet fleet = started(dir)) {
            queue(fleet, "team-a", "{namespaces: [team-a], quota: {gpus: {" + A100 + ": 16}}}");
            queue(fleet, "team-b", "{namespaces: [team-b], preemption: Never}");
            waitForQueues(fleet, 2);
            KubernetesClient hub = fleet.hub().client();
            // team-b borrows the four whole A100 nodes (it is promised nothing)
            for (int i = 1; i <= 4; i++) {
                hub.resource(job(fleet, "team-b", "b" + i, 1, 8)).create();
            }
            Eventually.until(
                    Duration.ofSeconds(90),
                    () -> running(fleet).get("team-b") == 4,
                    () -> "team-b's four gangs run: " + running(fleet));

            hub.resource(job(fleet, "team-a", "a1", 1, 8)).create();

            Eventually.until(
                    Duration.ofSeconds(90),
                    () -> running(fleet).equals(Map.of("team-a", 1L, "team-b", 3L)),
                    () -> "a1 runs in the place of one team-b gang: " + running(fleet));
            List<GenericKubernetesResource> victims = jobs(fleet, "team-b").stream()
                    .filter(j -> !"Running".equals(label(j, "cartograph.dev/phase")))
                    .toList();
            assertThat(victims).hasSize(1);
            GenericKubernetesResource victim = victims.get(0);
            String name = victim.getMetadata().getName();
            assertThat(label(victim, "cartograph.dev/phase")).isEqualTo("Queued");
            assertThat(reason(victim))
                    .startsWith("preempted by team-a/a1 (queue team-a reclaiming 8 " + A100 + " lent to team-b)");
            assertThat(label(jobs(fleet, "team-a").get(0), "cartograph.dev/cluster"))
                    .isEqualTo("gpu-west");
            // its copy stays on gpu-west, suspended through the PyTorchJob's suspend path; no other cluster was touched
            assertThat(copy(fleet, "gpu-west", "team-b", name).orElseThrow().toString())
                    .contains("suspend=true");
            for (String other : List.of("gpu-east", "gpu-edge")) {
                assertThat(jobsOn(fleet, other, "team-b")).as(other).isEmpty();
            }

            hub.resource(job(fleet, "team-a", "a1", 1, 8)).delete(); // room returns

            Eventually.until(
                    Duration.ofSeconds(120),
                    () -> running(fleet).get("team-b") == 4,
                    () -> name + " runs again: " + running(fleet) + "; the broker has " + record(fleet, name)
                            + "; the copy: "
                            + copy(fleet, "gpu-west", "team-b", name)
                                    .map(c -> c.getAdditionalProperties().get("spec")));
            assertThat(label(hub.resource(victim).get(), "cartograph.dev/cluster"))
                    .isEqualTo("gpu-west");
            assertThat(copy(fleet, "gpu-west", "team-b", name).orElseThrow().toString())
                    .contains("suspend=false");
        }
    }

    /** {@code carto usage --since 1h --by queue -o json}, run in this JVM: GPU-seconds per queue (of A100s). */
    static Map<String, Double> cartoUsage(LocalFleet fleet) throws Exception {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int exit = new picocli.CommandLine(new dev.cartograph.cli.Carto())
                .setOut(new java.io.PrintWriter(out))
                .setErr(new java.io.PrintWriter(err))
                .execute(
                        "usage",
                        "--since",
                        "1h",
                        "--by",
                        "queue",
                        "--broker",
                        fleet.brokerUrl(),
                        "--token-file",
                        fleet.token().file().toString(),
                        "-o",
                        "json");
        assertThat(exit).as(err.toString()).isZero();
        Map<String, Double> seconds = new TreeMap<>();
        for (com.fasterxml.jackson.databind.JsonNode row : dev.cartograph.interpreter.Documents.json()
                .readTree(out.toString())
                .path("rows")) {
            if (row.path("gpuModel").asText().equals(A100)) {
                seconds.merge(row.path("queue").asText(), row.path("gpuSeconds").asDouble(), Double::sum);
            }
        }
        return seconds;
    }

    static String record(LocalFleet fleet, String name) {
        return fleet.broker().view().placements().values().stream()
                .filter(p -> p.target().name().equals(name))
                .map(Object::toString)
                .findFirst()
                .orElse("no placement");
    }

    static Optional<GenericKubernetesResource> copy(LocalFleet fleet, String cluster, String ns, String name) {
        return Optional.ofNullable(fleet.member(cluster)
                .client()
                .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                .inNamespace(ns)
                .withName(name)
                .get());
    }

    static List<GenericKubernetesResource> jobsOn(LocalFleet fleet, String cluster, String ns) {
        return fleet.member(cluster)
                .client()
                .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                .inNamespace(ns)
                .list()
                .getItems();
    }
}
