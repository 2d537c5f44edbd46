package dev.cartograph.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.testing.TestKafka;
import dev.cartograph.protocol.PlacementRecord;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broker end to end against a real Kafka broker, a hub and members as fabric8 mock API servers
 * and real agents: submit → placed on the one cluster where the gang fits → applied there → status
 * mirrored → delete cleans up.
 */
@Timeout(240)
class BrokerIT {
    static TestKafka kafka;
    Federation fed;

    @BeforeAll
    static void kafka() throws Exception {
        Path data = Files.createTempDirectory("broker-it-kafka");
        kafka = TestKafka.start(
                data); // a Testcontainers Kafka when a container runtime answers, else in-process (it says which)
    }

    @AfterAll
    static void stopKafka() throws Exception {
        kafka.close();
    }

    @AfterEach
    void close() {
        if (fed != null) {
            fed.close();
        }
    }

    @Test
    void aGangLandsWhereAllItsPodsFitIsMirroredAndDeletedEverywhere() throws Exception {
        // west: 12 free GPUs but 3 per node (fragmented); east: two whole free nodes. 2 pods x 4 GPUs fit only on east.
        fed = new Federation(kafka::bootstrapServers)
                .member("west", "NVIDIA-H100-80GB-HBM3", 4, 5, 5, 5, 5)
                .member("east", "NVIDIA-H100-80GB-HBM3", 2);
        BrokerRuntime broker = fed.startBroker("broker-a", true);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> broker.view().active() && broker.view().fleet().clusters().size() == 2);

        GenericKubernetesResource submitted = fed.submitPyTorchJob("ft", 1, 4, "");
        String uid = submitted.getMetadata().getUid();

        Eventually.asserted(
                Duration.ofSeconds(30),
                () -> assertThat(fed.copies("east", Federation.PYTORCHJOBS)).hasSize(1));
        GenericKubernetesResource copy =
                fed.copies("east", Federation.PYTORCHJOBS).get(0);
        assertThat(copy.getMetadata().getLabels())
                .containsEntry("cartograph.dev/placement-id", uid)
                .doesNotContainKey("cartograph.dev/federate")
                .doesNotContainKey("cartograph.dev/cluster");
        assertThat(fed.copies("west", Federation.PYTORCHJOBS)).isEmpty();
        Eventually.asserted(Duration.ofSeconds(20), () -> {
            GenericKubernetesResource onHub = hubObject("ft");
            assertThat(onHub.getMetadata().getLabels()).containsEntry("cartograph.dev/cluster", "east");
            assertThat(onHub.getMetadata().getFinalizers()).contains("cartograph.dev/placement");
            assertThat(reasons(uid)).contains("Placed", "Forwarded");
        });
        // kubectl decodes MicroTime only with exactly six fraction digits (else describe silently shows no events)
        assertThat(fed.hub.v1().events().inNamespace("ml").list().getItems()).allSatisfy(e -> {
            assertThat(e.getEventTime().getTime()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
            assertThat(e.getFirstTimestamp()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        });
        BrokerView view = broker.view();
        assertThat(view.placements().get(uid).cluster()).contains("east");
        assertThat(view.placements().get(uid).state()).isEqualTo(PlacementRecord.State.APPLIED);
        assertThat(view.decisions().get(uid).clusters()).anySatisfy(v -> {
            assertThat(v.cluster()).isEqualTo("west");
            assertThat(v.fits()).isFalse();
            assertThat(v.reason()).contains("largest free block 3");
        });

        // the hub shows each member as a Cluster object (hand counts: west 4 x 8 GPUs, 5 used on each; east 2 x 8, 8
        // now reserved)
        Eventually.asserted(Duration.ofSeconds(20), () -> {
            Map<String, Object> west = clusterGpus("west");
            assertThat(west)
                    .containsEntry("total", 32)
                    .containsEntry("allocated", 20)
                    .containsEntry("free", 12)
                    .containsEntry("largestFreeBlock", 3);
            Map<String, Object> east = clusterGpus("east");
            assertThat(east)
                    .containsEntry("total", 16)
                    .containsEntry("reserved", 8)
                    .containsEntry("free", 8);
        });

        // the member's controller reports Running: the hub object shows the member's status and phase
        copy.setAdditionalProperty(
                "status",
                Map.of(
                        "conditions",
                        List.of(
                                Map.of("type", "Created", "status", "True"),
                                Map.of("type", "Running", "status", "True"))));
        fed.members
                .get("east")
                .genericKubernetesResources(Federation.PYTORCHJOBS)
                .inNamespace("ml")
                .resource(copy)
                .updateStatus();
        Eventually.asserted(Duration.ofSeconds(30), () -> {
            GenericKubernetesResource onHub = hubObject("ft");
            assertThat(onHub.getMetadata().getLabels()).containsEntry("cartograph.dev/phase", "Running");
            assertThat(String.valueOf(onHub.getAdditionalProperties().get("status")))
                    .contains("Running");
        });

        // delete on the hub: the member copy goes, then the hub object (finalizer released)
        fed.hub
                .genericKubernetesResources(Federation.PYTORCHJOBS)
                .inNamespace("ml")
                .withName("ft")
                .delete();
        Eventually.asserted(Duration.ofSeconds(30), () -> {
            assertThat(fed.copies("east", Federation.PYTORCHJOBS)).isEmpty();
            assertThat(fed.hub
                            .genericKubernetesResources(Federation.PYTORCHJOBS)
                            .inNamespace("ml")
                            .withName("ft")
                            .get())
                    .isNull();
            assertThat(broker.view().placements()).doesNotContainKey(uid);
        });
    }

    @Test
    void aHundredConcurrentGangsOnAFleetThatFitsExactlyAHundredArePlacedOnceEach() throws Exception {
        // 2 members x 25 nodes x 8 GPUs = 400 GPUs; 100 Jobs x 4 GPUs fill it exactly; the 101st must wait.
        fed = new Federation(kafka::bootstrapServers)
                .member("a", "NVIDIA-A100-SXM4-80GB", 25)
                .member("b", "NVIDIA-A100-SXM4-80GB", 25);
        BrokerRuntime broker = fed.startBroker("broker-a", false);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> broker.view().active() && broker.view().fleet().clusters().size() == 2);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        List<java.util.concurrent.Future<GenericKubernetesResource>> futures = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int n = i;
            futures.add(pool.submit(() -> fed.submitJob("job-" + n, 4)));
        }
        java.util.Set<String> uids = new java.util.HashSet<>();
        for (var f : futures) {
            uids.add(f.get().getMetadata().getUid());
        }
        pool.shutdown();
        assertThat(uids).hasSize(100);
        Eventually.asserted(
                Duration.ofSeconds(90),
                () -> assertThat(fed.copies("a", Federation.JOBS).size()
                                + fed.copies("b", Federation.JOBS).size())
                        .isEqualTo(100));
        String late = fed.submitJob("job-late", 4).getMetadata().getUid();

        Eventually.asserted(Duration.ofSeconds(30), () -> {
            assertThat(broker.view().placements().get(late)).isNotNull();
            assertThat(broker.view().placements().get(late).state()).isEqualTo(PlacementRecord.State.QUEUED);
            assertThat(broker.view().placements().get(late).reason()).contains("waits for capacity");
        });
        // each uid copied to exactly one member, and no node booked beyond its 8 GPUs
        Map<String, Long> copiesPerUid = new java.util.HashMap<>();
        for (String m : List.of("a", "b")) {
            for (GenericKubernetesResource copy : fed.copies(m, Federation.JOBS)) {
                copiesPerUid.merge(copy.getMetadata().getLabels().get("cartograph.dev/placement-id"), 1L, Long::sum);
            }
        }
        assertThat(copiesPerUid.keySet()).isEqualTo(uids);
        assertThat(copiesPerUid.values()).allMatch(c -> c == 1);
        Map<String, Long> perNode = new java.util.HashMap<>();
        for (PlacementRecord p : broker.view().placements().values()) {
            p.reserved()
                    .forEach((node, amount) ->
                            perNode.merge(p.cluster().orElseThrow() + "/" + node, amount.gpus(), Long::sum));
        }
        assertThat(perNode).hasSize(50);
        assertThat(perNode.values()).allMatch(g -> g == 8);
        Eventually.asserted(
                Duration.ofSeconds(20),
                () -> assertThat(hubJob("job-late").getMetadata().getLabels())
                        .containsEntry("cartograph.dev/phase", "Queued"));
        assertThat(hubJob("job-late").getMetadata().getAnnotations().get("cartograph.dev/reason"))
                .contains("largest free block 0");

        // one finishes and is deleted: its capacity returns and the waiting job is placed (event-driven, no polling of
        // the queue)
        fed.hub
                .genericKubernetesResources(Federation.JOBS)
                .inNamespace("ml")
                .withName("job-7")
                .delete();
        Eventually.asserted(
                Duration.ofSeconds(30),
                () -> assertThat(broker.view().placements().get(late).state())
                        .isIn(PlacementRecord.State.PLACED, PlacementRecord.State.APPLIED));
    }

    @Test
    void aBrokerRestartedMidStreamLosesAndDuplicatesNothing() throws Exception {
        fed = new Federation(kafka::bootstrapServers)
                .member("a", "NVIDIA-A100-SXM4-80GB", 10)
                .member("b", "NVIDIA-A100-SXM4-80GB", 10);
        BrokerRuntime first = fed.startBroker("broker-1", false);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> first.view().active() && first.view().fleet().clusters().size() == 2);
        java.util.Set<String> uids = new java.util.HashSet<>();
        for (int i = 0; i < 40; i++) {
            uids.add(fed.submitJob("job-" + i, 2).getMetadata().getUid());
            if (i == 15) {
                first.close(); // mid-stream: some placed, some not yet seen
                fed.brokers.remove(first);
            }
        }
        BrokerRuntime second = fed.startBroker("broker-2", false);
        Eventually.asserted(
                Duration.ofSeconds(90),
                () -> assertThat(fed.copies("a", Federation.JOBS).size()
                                + fed.copies("b", Federation.JOBS).size())
                        .isEqualTo(40));
        Map<String, Long> copiesPerUid = new java.util.HashMap<>();
        for (String m : List.of("a", "b")) {
            for (GenericKubernetesResource copy : fed.copies(m, Federation.JOBS)) {
                copiesPerUid.merge(copy.getMetadata().getLabels().get("cartograph.dev/placement-id"), 1L, Long::sum);
            }
        }
        assertThat(copiesPerUid.keySet()).isEqualTo(uids);
        assertThat(copiesPerUid.values()).allMatch(c -> c == 1);
        Eventually.asserted(
                Duration.ofSeconds(20),
                () -> assertThat(second.view().placements().values())
                        .hasSize(40)
                        .allMatch(p -> p.state() == PlacementRecord.State.APPLIED && p.epoch() == 1));
        Map<String, Long> perNode = new java.util.HashMap<>();
        for (PlacementRecord p : second.view().placements().values()) {
            p.reserved()
                    .forEach((node, amount) ->
                            perNode.merge(p.cluster().orElseThrow() + "/" + node, amount.gpus(), Long::sum));
        }
        assertThat(perNode.values()).allMatch(g -> g <= 8);
    }

    @Test
    void gangsOnALostClusterThatNeverStartedAreReplacedAndTheReturningAgentDeletesItsFencedCopy() throws Exception {
        fed = new Federation(kafka::bootstrapServers)
                .member("a", "NVIDIA-H100-80GB-HBM3", 2)
                .member("b", "NVIDIA-H100-80GB-HBM3", 1);
        BrokerRuntime broker = fed.startBroker("broker-a", false);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> broker.view().active() && broker.view().fleet().clusters().size() == 2);
        String uid = fed.submitJob("train", 8).getMetadata().getUid();
        // bin-packing: both clusters have whole free nodes; wait for whichever was chosen
        Eventually.asserted(
                Duration.ofSeconds(30),
                () -> assertThat(broker.view().placements())
                        .hasEntrySatisfying(uid, p -> assertThat(p.state()).isEqualTo(PlacementRecord.State.APPLIED)));
        String first = broker.view().placements().get(uid).cluster().orElseThrow();
        String other = first.equals("a") ? "b" : "a";
        fed.stopAgent(first);

        Eventually.asserted(Duration.ofSeconds(60), () -> {
            PlacementRecord p = broker.view().placements().get(uid);
            assertThat(p.cluster()).contains(other);
            assertThat(p.epoch()).isEqualTo(2);
            assertThat(fed.copies(other, Federation.JOBS)).hasSize(1);
        });
        assertThat(fed.copies(first, Federation.JOBS)).hasSize(1); // its agent is away: the stale copy is still there
        assertThat(reasons(uid)).contains("ClusterLost");

        fed.startAgent(first);
        Eventually.asserted(
                Duration.ofSeconds(60),
                () -> assertThat(fed.copies(first, Federation.JOBS)).isEmpty());
        assertThat(fed.copies(other, Federation.JOBS)).hasSize(1);
    }

    @Test
    void poisonRecordsOnEveryTopicAreCountedAndSkipped() throws Exception {
        fed = new Federation(kafka::bootstrapServers).member("a", "NVIDIA-A100-SXM4-80GB", 1);
        dev.cartograph.protocol.Topics topics = new dev.cartograph.protocol.Topics(fed.prefix);
        String aCluster = topics.of("a", dev.cartograph.protocol.Topics.AgentTopic.CLUSTER);
        String aWorkloads = topics.of("a", dev.cartograph.protocol.Topics.AgentTopic.WORKLOADS);
        String aEvents = topics.of("a", dev.cartograph.protocol.Topics.AgentTopic.EVENTS);
        Map<String, String> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
        try (var topology = new dev.cartograph.broker.kafka.Topology(
                        client, topics, dev.cartograph.protocol.TopicSettings.SINGLE_BROKER);
                var agentTopics = new dev.cartograph.protocol.kafka.TopicMaker(
                        client, dev.cartograph.protocol.TopicSettings.SINGLE_BROKER, "test")) {
            topology.ensurePlacements(); // topics are never created by writing to them
            agentTopics.ensure(Map.of( // as a's agent does, perhaps at the same moment
                    aCluster, dev.cartograph.protocol.kafka.TopicMaker.Cleanup.COMPACT,
                    aWorkloads, dev.cartograph.protocol.kafka.TopicMaker.Cleanup.COMPACT,
                    aEvents, dev.cartograph.protocol.kafka.TopicMaker.Cleanup.DELETE));
        }
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, byte[]>(
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            byte[] junk = "{\"schema\":1,\"type\":\"cluster\",\"cluster\":42}"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            for (String topic : List.of(aCluster, aEvents, topics.placements())) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, "x", "not json".getBytes()))
                        .get();
            }
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(aCluster, "y", junk))
                    .get();
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(aWorkloads, "no-slashes", junk))
                    .get();
        }
        BrokerRuntime broker = fed.startBroker("broker-a", false);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> broker.view().active() && broker.view().fleet().clusters().size() == 1);
        String uid = fed.submitJob("fine", 8).getMetadata().getUid();
        Eventually.asserted(
                Duration.ofSeconds(30),
                () -> assertThat(broker.view().placements())
                        .hasEntrySatisfying(uid, p -> assertThat(p.state()).isEqualTo(PlacementRecord.State.APPLIED)));
        assertThat(broker.view().poisonRecords()).isEqualTo(5); // hand count: the five records written above
    }

    static final String TRAINER_KARTA = read("../../deploy/examples/trainer-karta.yaml");

    static String read(String path) {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aKindTheCatalogDoesNotKnowIsFederatedOnceItsKartaIsOnTheHub() throws Exception {
        fed = new Federation(kafka::bootstrapServers).member("a", "NVIDIA-H100-80GB-HBM3", 2);
        var trainers = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                .withGroup("example.com")
                .withVersion("v1")
                .withKind("Trainer")
                .withPlural("trainers")
                .withNamespaced(true)
                .build();
        var kartas = dev.cartograph.kube.Kartas.KARTAS;
        // the member's agent learns the kind from its own Karta, read when it starts
        fed.stopAgent("a");
        for (var c : List.of(fed.hub, fed.members.get("a"))) {
            Federation.crd(c, "example.com", "v1", "Trainer", "trainers", "Namespaced");
            Federation.crd(c, "run.ai", "v1alpha1", "Karta", "kartas", "Cluster");
        }
        Federation.create(fed.members.get("a"), kartas, TRAINER_KARTA);
        fed.startAgent("a");
        BrokerRuntime broker = fed.startBroker("broker-a", false);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> broker.view().active() && broker.view().fleet().clusters().size() == 1);
        assertThat(broker.definitions()
                        .find(dev.cartograph.interpreter.kind.GroupVersionKind.of("example.com/v1", "Trainer")))
                .isEmpty();

        // the hub learns it live: a Karta object is all it takes
        Federation.create(fed.hub, kartas, TRAINER_KARTA);
        Eventually.until(
                Duration.ofSeconds(20),
                () -> broker.definitions()
                        .find(dev.cartograph.interpreter.kind.GroupVersionKind.of("example.com/v1", "Trainer"))
                        .isPresent());
        GenericKubernetesResource t = Federation.create(fed.hub, trainers, """
                apiVersion: example.com/v1
                kind: Trainer
                metadata: {name: t1, namespace: ml, labels: {cartograph.dev/federate: "true"}}
                spec:
                  replicas: 2
                  template:
                    spec:
                      containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "8"}}}]
                """);
        Eventually.asserted(Duration.ofSeconds(30), () -> {
            assertThat(broker.view().placements())
                    .hasEntrySatisfying(
                            t.getMetadata().getUid(),
                            p -> assertThat(p.state()).isEqualTo(PlacementRecord.State.APPLIED));
            assertThat(fed.members
                            .get("a")
                            .genericKubernetesResources(trainers)
                            .inNamespace("ml")
                            .list()
                            .getItems())
                    .hasSize(1);
        });
        // 2 pods x 8 GPUs booked, one whole node each (by hand)
        assertThat(broker.view().placements().get(t.getMetadata().getUid()).reserved())
                .hasSize(2);
    }

    @Test
    void twoReplicasOneLeaderAndTheOtherTakesOverWhenItStops() throws Exception {
        fed = new Federation(kafka::bootstrapServers).member("a", "NVIDIA-A100-SXM4-80GB", 4);
        BrokerRuntime one = fed.startBroker("replica-1", true);
        Eventually.until(Duration.ofSeconds(60), () -> one.view().active());
        BrokerRuntime two = fed.startBroker("replica-2", true);
        Eventually.until(
                Duration.ofSeconds(30),
                () -> two.view().caughtUp() && two.view().fleet().clusters().size() == 1);
        String first = fed.submitJob("before", 8).getMetadata().getUid();
        Eventually.asserted(
                Duration.ofSeconds(30),
                () -> assertThat(two.view().placements())
                        .hasEntrySatisfying(
                                first,
                                p -> assertThat(p.state())
                                        .isEqualTo(
                                                PlacementRecord.State
                                                        .APPLIED))); // the follower reads what the leader decided
        assertThat(two.view().leading()).isFalse();

        one.close();
        fed.brokers.remove(one);
        Eventually.until(
                Duration.ofSeconds(40), () -> two.view().active()); // the lease is released on close and taken over
        String second = fed.submitJob("after", 8).getMetadata().getUid();
        Eventually.asserted(
                Duration.ofSeconds(30),
                () -> assertThat(fed.copies("a", Federation.JOBS)).hasSize(2));
        assertThat(two.view().placements().get(second).epoch()).isEqualTo(1);
        assertThat(two.view().fleet().reservations().values().stream()
                        .mapToLong(r -> r.perNode().values().stream()
                                .mapToLong(x -> x.gpus())
                                .sum())
                        .sum())
                .isLessThanOrEqualTo(16); // both gangs booked once each, no more
        assertThat(fed.hub
                        .leases()
                        .inNamespace("cartograph-system")
                        .withName("cartograph-broker")
                        .get()
                        .getSpec()
                        .getHolderIdentity())
                .isEqualTo("replica-2");
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> clusterGpus(String name) {
        GenericKubernetesResource c = fed.hub
                .genericKubernetesResources(dev.cartograph.broker.hub.ClusterObjects.CLUSTERS)
                .withName(name)
                .get();
        assertThat(c).as("Cluster " + name).isNotNull();
        return (Map<String, Object>)
                ((Map<String, Object>) c.getAdditionalProperties().get("status")).get("gpus");
    }

    GenericKubernetesResource hubJob(String name) {
        return fed.hub
                .genericKubernetesResources(Federation.JOBS)
                .inNamespace("ml")
                .withName(name)
                .get();
    }

    GenericKubernetesResource hubObject(String name) {
        return fed.hub
                .genericKubernetesResources(Federation.PYTORCHJOBS)
                .inNamespace("ml")
                .withName(name)
                .get();
    }

    List<String> reasons(String uid) {
        return fed.hub.v1().events().inNamespace("ml").list().getItems().stream()
                .filter(e -> uid.equals(e.getInvolvedObject().getUid()))
                .map(Event::getReason)
                .toList();
    }
}
