package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on the local fleet with the default profile (free GPUs per node, by hand: gpu-east H100
 * 8,8,6,0; gpu-west A100 8,8,8,8,4,4,2,0; gpu-edge L40S 4,3): each scenario has exactly one right
 * cluster; a gang that fits nowhere waits and is placed when another finishes; 50 gangs at once all
 * run, each on one cluster, and the fleet's GPU totals add up.
 */
@Timeout(300)
class LocalFleetIT {
    static final ResourceDefinitionContext PYTORCHJOBS = ctx("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs");
    static final Path EXAMPLES = Path.of("examples");

    @TempDir
    Path dir;

    static ResourceDefinitionContext ctx(String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(true)
                .build();
    }

    LocalFleet start(Duration batchRunTime) {
        return LocalFleet.start(FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(batchRunTime));
    }

    static GenericKubernetesResource submit(LocalFleet fleet, String example) throws Exception {
        try (InputStream in = Files.newInputStream(EXAMPLES.resolve(example))) {
            GenericKubernetesResource r =
                    fleet.hub().client().getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
            return fleet.hub().client().resource(r).create();
        }
    }

    static Map<String, String> labels(LocalFleet fleet, GenericKubernetesResource r) {
        GenericKubernetesResource now = fleet.hub().client().resource(r).get();
        return now == null || now.getMetadata().getLabels() == null
                ? Map.of()
                : now.getMetadata().getLabels();
    }

    @Test
    void theBrokersRestApiAnswersOnlyTheFleetsOwnTokenWhichOnlyItsOwnerMayRead() throws Exception {
        try (LocalFleet fleet = start(Duration.ofSeconds(60))) {
            HttpClient http = HttpClient.newHttpClient();
            URI api = URI.create(fleet.brokerUrl() + "/api/v1/fleet");
            HttpResponse<String> none =
                    http.send(HttpRequest.newBuilder(api).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate"))
                    .hasValueSatisfying(h -> assertThat(h).startsWith("Bearer"));
            HttpResponse<String> wrong = http.send(
                    HttpRequest.newBuilder(api)
                            .header("Authorization", "Bearer " + "x".repeat(43))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(wrong.statusCode()).isEqualTo(401);
            String token = Files.readString(fleet.token().file()).strip();
            assertThat(token).hasSize(43); // 32 random bytes, base64url without padding
            HttpResponse<String> ok = http.send(
                    HttpRequest.newBuilder(api)
                            .header("Authorization", "Bearer " + token)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            assertThat(Documents.json().readTree(ok.body()).has("clusters")).isTrue();
            assertThat(http.send(
                                    HttpRequest.newBuilder(URI.create(fleet.brokerUrl() + "/health"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(200);
            assertThat(Files.getPosixFilePermissions(fleet.token().file()))
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(Files.getPosixFilePermissions(fleet.token().tokenFile()))
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(Files.readString(fleet.token().tokenFile())).contains(token + ",cartograph-admin,");
        }
    }

    @Test
    void eachGangLandsOnItsOneRightClusterAndAGangThatFitsNowhereWaitsForCapacity() throws Exception {
        try (LocalFleet fleet = start(Duration.ofSeconds(20))) {
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            GenericKubernetesResource wholeNodes =
                    submit(fleet, "jobset-whole-nodes.yaml"); // 4 x 8 GPUs: only gpu-west
            GenericKubernetesResource l40s = submit(fleet, "mpijob-l40s.yaml"); // pinned to L40S: gpu-edge
            GenericKubernetesResource h100 = submit(fleet, "pytorchjob.yaml"); // 2 x 8 H100: gpu-east
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "gpu-west".equals(labels(fleet, wholeNodes).get("cartograph.dev/cluster"))
                            && "gpu-edge".equals(labels(fleet, l40s).get("cartograph.dev/cluster"))
                            && "gpu-east".equals(labels(fleet, h100).get("cartograph.dev/cluster")),
                    () -> "three placements");
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "Running".equals(labels(fleet, h100).get("cartograph.dev/phase")),
                    () -> "llama-finetune Running");

            // gpu-east's two whole nodes are taken: the second 2 x 8 H100 gang waits, with the reason on the object
            GenericKubernetesResource waiting = submit(fleet, "waits-for-h100.yaml");
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> "Queued".equals(labels(fleet, waiting).get("cartograph.dev/phase")),
                    () -> "eval-h100 queued");
            String reason = fleet.hub()
                    .client()
                    .resource(waiting)
                    .get()
                    .getMetadata()
                    .getAnnotations()
                    .get("cartograph.dev/reason");
            assertThat(reason)
                    .contains("gpu-east: needs 1 pods × 8 GPUs NVIDIA-H100-80GB-HBM3")
                    .contains("largest free block 6");

            // llama-finetune completes in the simulator, its GPUs return, and the waiting gang is placed there
            Eventually.until(
                    Duration.ofSeconds(90),
                    () -> "Completed".equals(labels(fleet, h100).get("cartograph.dev/phase")),
                    () -> "llama Completed");
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "gpu-east".equals(labels(fleet, waiting).get("cartograph.dev/cluster"))
                            && "Running".equals(labels(fleet, waiting).get("cartograph.dev/phase")),
                    () -> "eval-h100 placed and running");
            assertThat(fleet.member("gpu-west")
                            .client()
                            .genericKubernetesResources(PYTORCHJOBS)
                            .inNamespace("ml")
                            .list()
                            .getItems())
                    .isEmpty();
        }
    }

    @Test
    void fiftyGangsAtOnceAllRunEachOnOneClusterAndTheTotalsAddUp() throws Exception {
        try (LocalFleet fleet = start(Duration.ofHours(1))) {
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            long before = allocated(fleet);
            assertThat(before).isEqualTo(10 + 22 + 1); // pre-existing pods, by hand from the profile
            Eventually.until(
                    Duration.ofSeconds(20),
                    () -> fleet.hub()
                                    .client()
                                    .genericKubernetesResources(dev.cartograph.broker.hub.ClusterObjects.CLUSTERS)
                                    .list()
                                    .getItems()
                                    .size()
                            == 3,
                    () -> "a Cluster object per member on the hub");
            for (int i = 0; i < 50; i++) {
                fleet.hub()
                        .client()
                        .genericKubernetesResources(PYTORCHJOBS)
                        .inNamespace("ml")
                        .resource(pytorchJob("g" + i))
                        .create();
            }
            Eventually.until(
                    Duration.ofSeconds(150),
                    () ->
                            fleet
                                            .hub()
                                            .client()
                                            .genericKubernetesResources(PYTORCHJOBS)
                                            .inNamespace("ml")
                                            .list()
                                            .getItems()
                                            .stream()
                                            .filter(o -> o.getMetadata().getLabels() != null
                                                    && "Running"
                                                            .equals(o.getMetadata()
                                                                    .getLabels()
                                                                    .get("cartograph.dev/phase")))
                                            .count()
                                    == 50,
                    () -> "50 Running");
            Map<String, Integer> copies = new HashMap<>();
            for (String c : fleet.clusters()) {
                for (GenericKubernetesResource copy : fleet.member(c)
                        .client()
                        .genericKubernetesResources(PYTORCHJOBS)
                        .inNamespace("ml")
                        .list()
                        .getItems()) {
                    copies.merge(copy.getMetadata().getLabels().get("cartograph.dev/placement-id"), 1, Integer::sum);
                }
            }
            assertThat(copies).hasSize(50);
            assertThat(copies.values()).allMatch(n -> n == 1);
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> allocated(fleet) == before + 50,
                    () -> "fleet allocated GPUs = 33 + 50");
        }
    }

    @Test
    void gangsThatNeverStartedOnAMemberWhoseAgentStoppedArePlacedElsewhereAndTheReturningAgentDeletesItsCopy()
            throws Exception {
        FleetOptions options = FleetOptions.defaults(dir)
                .withPorts(0, 0, 0)
                .withBatchRunTime(Duration.ofHours(1))
                .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(8));
        try (LocalFleet fleet = LocalFleet.start(options)) {
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            fleet.clusters()
                    .forEach(fleet::stopSimulator); // nothing starts: the copy is applied but its pods never run
            GenericKubernetesResource job = fleet.hub()
                    .client()
                    .genericKubernetesResources(PYTORCHJOBS)
                    .inNamespace("ml")
                    .resource(pytorchJob("stranded", 8))
                    .create(); // 1 x 8 GPUs: gpu-east or gpu-west has whole free nodes
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> labels(fleet, job).containsKey("cartograph.dev/cluster")
                            && copies(fleet, labels(fleet, job).get("cartograph.dev/cluster")) == 1,
                    () -> "applied somewhere");
            String first = labels(fleet, job).get("cartograph.dev/cluster");
            fleet.stopAgent(first);
            fleet.clusters().stream().filter(c -> !c.equals(first)).forEach(fleet::startSimulator);

            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> {
                        Map<String, String> l = labels(fleet, job);
                        return l.containsKey("cartograph.dev/cluster")
                                && !first.equals(l.get("cartograph.dev/cluster"))
                                && "Running".equals(l.get("cartograph.dev/phase"));
                    },
                    () -> "re-placed elsewhere and running");
            String second = labels(fleet, job).get("cartograph.dev/cluster");
            assertThat(fleet.hub().client().resource(job).get().getMetadata().getAnnotations())
                    .containsEntry("cartograph.dev/epoch", "2");
            assertThat(copies(fleet, first)).isEqualTo(1); // the lost member still holds its stale copy

            fleet.startAgent(first);
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> copies(fleet, first) == 0,
                    () -> "the returning agent deletes its fenced copy");
            assertThat(copies(fleet, second)).isEqualTo(1);
        }
    }

    @Test
    void aBrokerRestartedDuringABurstAndAKafkaRestartLoseAndDuplicateNothing() throws Exception {
        try (LocalFleet fleet = start(Duration.ofHours(1))) {
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            for (int i = 0; i < 30; i++) {
                fleet.hub()
                        .client()
                        .genericKubernetesResources(PYTORCHJOBS)
                        .inNamespace("ml")
                        .resource(pytorchJob("burst-" + i, 1))
                        .create();
                if (i == 12) {
                    fleet.stopBroker();
                }
            }
            fleet.startBroker();
            Eventually.until(
                    Duration.ofSeconds(120),
                    () -> running(fleet) == 30,
                    () -> "30 Running after the broker restart; " + phases(fleet));

            fleet.restartKafka();
            for (int i = 0; i < 5; i++) {
                fleet.hub()
                        .client()
                        .genericKubernetesResources(PYTORCHJOBS)
                        .inNamespace("ml")
                        .resource(pytorchJob("after-" + i, 1))
                        .create();
            }
            Eventually.until(
                    Duration.ofSeconds(120),
                    () -> running(fleet) == 35,
                    () -> "35 Running after the Kafka restart; " + phases(fleet));
            Map<String, Integer> copies = new HashMap<>();
            for (String c : fleet.clusters()) {
                for (GenericKubernetesResource copy : fleet.member(c)
                        .client()
                        .genericKubernetesResources(PYTORCHJOBS)
                        .inNamespace("ml")
                        .list()
                        .getItems()) {
                    copies.merge(copy.getMetadata().getLabels().get("cartograph.dev/placement-id"), 1, Integer::sum);
                }
            }
            assertThat(copies).hasSize(35);
            assertThat(copies.values()).allMatch(n -> n == 1);
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> fleet.broker().view().fleet().clusters().size() == 3
                            && fleet.broker().view().fleet().clusters().keySet().stream()
                                    .allMatch(c -> fleet.broker()
                                            .view()
                                            .fleet()
                                            .ready(
                                                    c,
                                                    java.time.Instant.now(),
                                                    fleet.options().heartbeatTimeout())),
                    () -> "every agent reconnected");
        }
    }

    /** name → cluster/phase of every hub PyTorchJob not Running, and the broker's state for it: what a failure shows. */
    static String phases(LocalFleet fleet) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (GenericKubernetesResource o : fleet.hub()
                .client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace("ml")
                .list()
                .getItems()) {
            Map<String, String> l = o.getMetadata().getLabels() == null
                    ? Map.of()
                    : o.getMetadata().getLabels();
            if (!"Running".equals(l.get("cartograph.dev/phase"))) {
                var p = fleet.broker().view().placements().get(o.getMetadata().getUid());
                var m = fleet.broker().view().members().get(o.getMetadata().getUid());
                out.put(
                        o.getMetadata().getName(),
                        l.get("cartograph.dev/cluster") + "/" + l.get("cartograph.dev/phase") + " broker="
                                + (p == null
                                        ? "none"
                                        : p.state() + "@" + p.cluster().orElse("-")) + " member="
                                + (m == null ? "none" : m.phase()));
            }
        }
        return out.toString();
    }

    static long running(LocalFleet fleet) {
        return fleet.hub().client().genericKubernetesResources(PYTORCHJOBS).inNamespace("ml").list().getItems().stream()
                .filter(o -> o.getMetadata().getLabels() != null
                        && "Running".equals(o.getMetadata().getLabels().get("cartograph.dev/phase")))
                .count();
    }

    static int copies(LocalFleet fleet, String cluster) {
        return fleet.member(cluster)
                .client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace("ml")
                .list()
                .getItems()
                .size();
    }

    static GenericKubernetesResource pytorchJob(String name) {
        return pytorchJob(name, 1);
    }

    static GenericKubernetesResource pytorchJob(String name, int gpus) {
        JsonNode o = Documents.json()
                .createObjectNode()
                .put("apiVersion", "kubeflow.org/v1")
                .put("kind", "PyTorchJob");
        ((com.fasterxml.jackson.databind.node.ObjectNode) o)
                .putObject("metadata")
                .put("name", name)
                .put("namespace", "ml");
        ((com.fasterxml.jackson.databind.node.ObjectNode) o)
                .putObject("spec")
                .putObject("pytorchReplicaSpecs")
                .putObject("Master")
                .put("replicas", 1)
                .putObject("template")
                .putObject("spec")
                .putArray("containers")
                .addObject()
                .put("name", "pytorch")
                .put("image", "t")
                .putObject("resources")
                .putObject("limits")
                .put("nvidia.com/gpu", Integer.toString(gpus));
        return Documents.json().convertValue(o, GenericKubernetesResource.class);
    }

    static long allocated(LocalFleet fleet) {
        return fleet.broker().view().fleet().clusters().values().stream()
                .flatMap(s -> s.nodes().stream())
                .mapToLong(n -> n.allocated().gpus())
                .sum();
    }
}
