package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.ClusterAssembly;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.NodeParts;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent against a real Kafka broker (KRaft, in-process) and a fabric8 mock API server (CRUD
 * mode) as its member cluster: summaries follow node and pod changes, heartbeats continue, new
 * CRDs are picked up, commands apply idempotently with fencing and rejections, poison records are
 * skipped, and a restarted agent resumes from committed offsets.
 */
@Timeout(180)
@EnableKubernetesMockClient(crud = true)
class AgentIT {
    static LocalKafka kafka;
    static Path data;
    KubernetesClient client;
    AgentRuntime agent;
    String cluster;
    Topics topics;
    final List<ClusterSummary> clusters = new CopyOnWriteArrayList<>();
    final List<WorkloadSummary> workloads = new CopyOnWriteArrayList<>();
    final List<CommandResult> results = new CopyOnWriteArrayList<>();
    Thread reader;
    volatile boolean reading;

    @BeforeAll
    static void kafka() throws Exception {
        data = Files.createTempDirectory("agent-it-kafka");
        kafka = LocalKafka.start(data);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    @BeforeEach
    void cluster() throws Exception {
        cluster = "member-" + Long.toHexString(System.nanoTime());
        topics = new Topics("it" + Long.toHexString(System.nanoTime()));
        kafka.createTopics(topics.commands(cluster)); // as the broker does; the agent creates its own topics
        create("""
                apiVersion: v1
                kind: Node
                metadata: {name: gpu-1, labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}}
                status:
                  allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "8", pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                """);
        client.pods().inNamespace("ml").resource(pod("running-a", "gpu-1", 4)).create();
        readAll();
        agent = startAgent();
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.close();
        }
        reading = false;
        reader.join(5000);
    }

    AgentRuntime startAgent() {
        AgentSettings settings = new AgentSettings(
                        cluster,
                        Map.of("region", "test"),
                        topics.prefix(),
                        Map.of("bootstrap.servers", kafka.bootstrapServers()),
                        Duration.ofMillis(200),
                        Duration.ofSeconds(1),
                        Set.of(),
                        true)
                .withTopicSettings(TopicSettings.SINGLE_BROKER);
        AgentRuntime a = new AgentRuntime(
                settings, new MemberCluster(client), Catalog.load().definitions(), Clock.systemUTC());
        a.start();
        return a;
    }

    @Test
    void summariesFollowPodsAndHeartbeatsContinue() throws Exception {
        Eventually.until(Duration.ofSeconds(30), () -> gpusAllocated("gpu-1") == 4);
        client.pods().inNamespace("ml").resource(pod("running-b", "gpu-1", 2)).create();
        Eventually.until(Duration.ofSeconds(30), () -> gpusAllocated("gpu-1") == 6);
        client.pods().inNamespace("ml").withName("running-a").delete();
        Eventually.until(Duration.ofSeconds(30), () -> gpusAllocated("gpu-1") == 2);
        int before = clusters.size();
        Thread.sleep(2500); // nothing changes: heartbeats still arrive, with rising sequence numbers
        List<ClusterSummary> later = new ArrayList<>(clusters.subList(before, clusters.size()));
        assertThat(later).hasSizeGreaterThanOrEqualTo(2);
        assertThat(later.get(later.size() - 1).sequence())
                .isGreaterThan(later.get(0).sequence());
        assertThat(later).allSatisfy(s -> assertThat(s.incarnation()).isEqualTo(agent.incarnation()));
    }

    @Test
    void theAgentCreatesItsOwnThreeTopicsAsTheBrokerWouldAndWritesToNoOther() throws Exception {
        Eventually.until(Duration.ofSeconds(30), () -> !clusters.isEmpty() && !workloads.isEmpty());
        assertThat(clusters).allSatisfy(c -> assertThat(c.cluster()).isEqualTo(cluster));
        String own = topics.agentPrefix(cluster);
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            // hand count: the agent's three, and the command topic this test made as the broker would
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .filteredOn(t -> t.startsWith(topics.prefix() + "."))
                    .containsExactlyInAnyOrder(
                            own + "cluster", own + "workloads", own + "events", topics.commands(cluster));
            for (String topic : List.of(own + "cluster", own + "workloads", own + "events")) {
                ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                Config c = admin.describeConfigs(List.of(r))
                        .all()
                        .get(10, TimeUnit.SECONDS)
                        .get(r);
                assertThat(c.get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
                        .as(topic)
                        .isEqualTo(topic.endsWith("events") ? "delete" : "compact");
                assertThat(c.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value())
                        .as(topic)
                        .isEqualTo("1");
                assertThat(c.get(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG)
                                .value())
                        .as(topic)
                        .isEqualTo("false");
            }
        }
    }

    @Test
    void aCrdAddedLaterIsWatchedAndItsWorkloadsSummarized() throws Exception {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName("jobsets.jobset.x-k8s.io")
                        .endMetadata()
                        .withNewSpec()
                        .withGroup("jobset.x-k8s.io")
                        .withScope("Namespaced")
                        .withVersions(new CustomResourceDefinitionVersionBuilder()
                                .withName("v1alpha2")
                                .withServed(true)
                                .withStorage(true)
                                .build())
                        .withNewNames()
                        .withKind("JobSet")
                        .withPlural("jobsets")
                        .withSingular("jobset")
                        .endNames()
                        .endSpec()
                        .build())
                .create();
        Thread.sleep(1000);
        var ctx = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                .withGroup("jobset.x-k8s.io")
                .withVersion("v1alpha2")
                .withKind("JobSet")
                .withPlural("jobsets")
                .withNamespaced(true)
                .build();
        JsonNode jobset = yaml("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: train, namespace: ml}
                spec:
                  replicatedJobs:
                    - name: w
                      replicas: 2
                      template: {spec: {parallelism: 2, template: {spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 8}}}]}}}}
                """);
        Eventually.asserted(Duration.ofSeconds(30), () -> {
            try {
                client.genericKubernetesResources(ctx)
                        .inNamespace("ml")
                        .resource(Documents.json()
                                .treeToValue(jobset, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                        .createOr(r -> r.update());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            assertThat(workloads).anySatisfy(w -> {
                assertThat(w.key().kind()).isEqualTo("JobSet");
                assertThat(w.pods()).isEqualTo(4);
                assertThat(w.resources().gpus()).isEqualTo(32);
            });
        });
    }

    @Test
    void commandsApplyIdempotentlyWithFencingAndRejections() throws Exception {
        JsonNode job = yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: eval, namespace: team-x}
                spec: {parallelism: 2, template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
                """);
        Instant t = Instant.now();
        send(new Command.Apply("p-1", 2, t, job));
        send(new Command.Apply("p-1", 2, t, job)); // redelivery
        sendRaw("p-x", "{\"not\": \"a command\"".getBytes(StandardCharsets.UTF_8)); // poison
        send(new Command.Apply("p-1", 1, t, job)); // older epoch
        send(new Command.Apply(
                "p-2", 1, t, yaml(Documents.json().writeValueAsString(job).replace("team-x", "kube-system"))));
        send(new Command.Apply(
                "p-3", 1, t, yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ml}\n")));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 5);
        assertThat(results)
                .extracting(CommandResult::placementId, CommandResult::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("p-1", CommandResult.Outcome.APPLIED),
                        org.assertj.core.groups.Tuple.tuple("p-1", CommandResult.Outcome.APPLIED),
                        org.assertj.core.groups.Tuple.tuple("p-1", CommandResult.Outcome.STALE),
                        org.assertj.core.groups.Tuple.tuple("p-2", CommandResult.Outcome.REJECTED),
                        org.assertj.core.groups.Tuple.tuple("p-3", CommandResult.Outcome.REJECTED));
        assertThat(agent.poisonCommands()).isEqualTo(1);
        List<Job> jobs = client.batch().v1().jobs().inNamespace("team-x").list().getItems();
        assertThat(jobs).singleElement().satisfies(j -> {
            assertThat(j.getMetadata().getLabels()).containsEntry("cartograph.dev/placement-id", "p-1");
            assertThat(j.getMetadata().getAnnotations()).containsEntry("cartograph.dev/epoch", "2");
        });
        assertThat(client.namespaces().withName("team-x").get()).isNotNull(); // created on demand
        // a summary reports the placement with its epoch
        Eventually.until(
                Duration.ofSeconds(30),
                () -> !clusters.isEmpty()
                        && clusters.get(clusters.size() - 1).placements().stream()
                                .anyMatch(p -> p.placementId().equals("p-1") && p.epoch() == 2));

        // restart: commands already handled are not applied again; the new one is
        agent.close();
        agent = null;
        send(new Command.Delete("p-1", 3, Instant.now(), new WorkloadKey(cluster, "team-x", "batch", "Job", "eval")));
        agent = startAgent();
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 6);
        Thread.sleep(1500);
        assertThat(results).hasSize(6);
        assertThat(results.get(5).outcome()).isEqualTo(CommandResult.Outcome.DELETED);
        Eventually.until(
                Duration.ofSeconds(10),
                () -> client.batch()
                        .v1()
                        .jobs()
                        .inNamespace("team-x")
                        .list()
                        .getItems()
                        .isEmpty());
    }

    @Test
    void aDeleteTouchesOnlyTheObjectItNamesAndNeverAnObjectThatCopiedTheMarks() throws Exception {
        Eventually.until(Duration.ofSeconds(30), agent::healthy, () -> "health " + agent.health());
        // another tenant's Job in namespace ml carries p-9's marks (copied labels), and p-9's real copy does not exist
        job("someone-elses", "p-9");
        // a Job a controller created, whose template copied p-9's marks: never a copy, never reported as one
        create("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: child
                  namespace: ml
                  labels: {cartograph.dev/placement-id: p-9, app.kubernetes.io/managed-by: cartograph-agent}
                  annotations: {cartograph.dev/epoch: "1"}
                  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: js, uid: u-1, controller: true}]
                spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
                """);
        send(new Command.Delete("p-9", 2, Instant.now(), new WorkloadKey(cluster, "team-x", "batch", "Job", "train")));
        // a Delete naming another cluster's copy is refused
        send(new Command.Delete("p-9", 2, Instant.now(), new WorkloadKey("elsewhere", "ml", "batch", "Job", "child")));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 2);
        assertThat(results)
                .extracting(CommandResult::outcome, CommandResult::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(CommandResult.Outcome.DELETED, "nothing to delete"),
                        org.assertj.core.groups.Tuple.tuple(
                                CommandResult.Outcome.REJECTED,
                                "the delete names Job ml/child on cluster elsewhere, not on " + cluster
                                        + "; nothing is deleted"));
        assertThat(client.batch().v1().jobs().inNamespace("ml").list().getItems())
                .extracting(j -> j.getMetadata().getName())
                .containsExactlyInAnyOrder("someone-elses", "child");
        // only the top-level marked Job is reported as p-9's copy (it is the agent's mark, if anyone's); the child
        // never
        Eventually.until(
                Duration.ofSeconds(30),
                () -> !clusters.isEmpty()
                        && clusters.get(clusters.size() - 1).placements().stream()
                                .anyMatch(p -> p.placementId().equals("p-9")));
        assertThat(clusters.get(clusters.size() - 1).placements())
                .filteredOn(p -> p.placementId().equals("p-9"))
                .hasSize(1);
    }

    @Test
    void aKartaAddedWhileRunningLetsTheAgentApplyAndSummarizeANewKind() throws Exception {
        var trainers = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                .withGroup("example.com")
                .withVersion("v1")
                .withKind("Trainer")
                .withPlural("trainers")
                .withNamespaced(true)
                .build();
        JsonNode trainer = yaml("""
                apiVersion: example.com/v1
                kind: Trainer
                metadata: {name: t1, namespace: ml}
                spec: {replicas: 2, template: {spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "4"}}}]}}}
                """);
        crd("example.com", "Trainer", "trainers", "Namespaced");
        send(new Command.Apply("p-t", 1, Instant.now(), trainer));
        Eventually.until(Duration.ofSeconds(30), () -> !results.isEmpty());
        assertThat(results.get(0).outcome())
                .isEqualTo(CommandResult.Outcome.REJECTED); // no definition for the kind yet

        crd("run.ai", "Karta", "kartas", "Cluster");
        client.genericKubernetesResources(dev.cartograph.kube.Kartas.KARTAS)
                .resource(Documents.json()
                        .convertValue(
                                yaml(Files.readString(Path.of("../../deploy/examples/trainer-karta.yaml"))),
                                io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                .create();
        Eventually.asserted(Duration.ofSeconds(30), () -> {
            try {
                send(new Command.Apply("p-t", 1, Instant.now(), trainer));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            int before = results.size();
            try {
                Eventually.until(Duration.ofSeconds(5), () -> results.size() > before);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(results.get(results.size() - 1).outcome()).isEqualTo(CommandResult.Outcome.APPLIED);
        });
        assertThat(client.genericKubernetesResources(trainers)
                        .inNamespace("ml")
                        .list()
                        .getItems())
                .hasSize(1);
        // and it is summarized with the Karta's reading: 2 pods x 4 GPUs (by hand)
        Eventually.asserted(
                Duration.ofSeconds(30),
                () -> assertThat(workloads).anySatisfy(w -> {
                    assertThat(w.key().kind()).isEqualTo("Trainer");
                    assertThat(w.pods()).isEqualTo(2);
                    assertThat(w.resources().gpus()).isEqualTo(8);
                }));
    }

    @Test
    void anAgentThatCannotReadCommandsIsDownSaysWhyAndSendsNoMoreHeartbeats() throws Exception {
        String other = "down-" + Long.toHexString(System.nanoTime());
        AgentSettings settings = new AgentSettings(
                        other,
                        Map.of(),
                        topics.prefix(),
                        Map.of("bootstrap.servers", kafka.bootstrapServers(), "group.protocol", "not-a-protocol"),
                        Duration.ofMillis(200),
                        Duration.ofSeconds(1),
                        Set.of(),
                        true)
                .withTopicSettings(TopicSettings.SINGLE_BROKER); // the consumer refuses it
        try (AgentRuntime down = new AgentRuntime(
                settings, new MemberCluster(client), Catalog.load().definitions(), Clock.systemUTC())) {
            down.start();
            // down at first for want of a summary; wait for the command loop's own reason
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> down.health().reason().startsWith("commands are not read"),
                    () -> "health " + down.health());
            assertThat(down.health().reason())
                    .startsWith("commands are not read: stopped: Kafka refuses this agent")
                    .contains("group.protocol");
            assertThat(down.healthy()).isFalse();
            long before =
                    clusters.stream().filter(c -> c.cluster().equals(other)).count();
            Thread.sleep(2500); // past two heartbeat intervals
            assertThat(clusters.stream().filter(c -> c.cluster().equals(other)).count())
                    .isEqualTo(before);
        }
        assertThat(agent.healthy()).isTrue(); // the other agent, on the same Kafka, serves
    }

    /** A Job as the agent creates it for a placement (its labels and epoch), or a local one when {@code placement} is empty. */
    void job(String name, String placement) throws Exception {
        job(name, placement, "{}");
    }

    /** As {@link #job(String, String)}, with this status. */
    void job(String name, String placement, String status) throws Exception {
        String labels = placement.isEmpty()
                ? "{}"
                : "{cartograph.dev/placement-id: " + placement + ", app.kubernetes.io/managed-by: cartograph-agent}";
        create("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s, namespace: ml, labels: %s, annotations: {cartograph.dev/epoch: "1"}}
                spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "1"}}}]}}}
                status: %s
                """.formatted(name, labels, status));
    }

    AgentRuntime fencingAgent(String bootstrap) {
        AgentSettings settings = new AgentSettings(
                cluster,
                Map.of(),
                topics.prefix(),
                Map.of("bootstrap.servers", bootstrap, "max.block.ms", "2000"),
                Duration.ofMillis(200),
                Duration.ofSeconds(1),
                Set.of(),
                true,
                new SelfFence.Settings(Optional.of(Duration.ofSeconds(3)), false),
                AgentSettings.Admission.DEFAULT,
                TopicSettings.SINGLE_BROKER);
        AgentRuntime a = new AgentRuntime(
                settings, new MemberCluster(client), Catalog.load().definitions(), Clock.systemUTC());
        a.start();
        return a;
    }

    @Test
    void anAgentCutOffFromKafkaDeletesThePlacedCopiesTheBrokerWouldPlaceElsewhereAndNothingElse() throws Exception {
        agent.close(); // this test's agent is one that cannot reach Kafka
        agent = null;
        job("placed", "p-cut");
        job("local", "");
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens there once closed
        }
        try (AgentRuntime cut = fencingAgent("127.0.0.1:" + closed)) {
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace("ml")
                                    .withName("placed")
                                    .get()
                            == null,
                    () -> "placed copy still there; health " + cut.health());
            assertThat(client.batch()
                            .v1()
                            .jobs()
                            .inNamespace("ml")
                            .withName("local")
                            .get())
                    .isNotNull();
            Eventually.until(
                    Duration.ofSeconds(10),
                    () -> cut.health().reason().contains("self-fenced"),
                    () -> "health " + cut.health());
            assertThat(cut.health().up()).isFalse();
        }
    }

    /**
     * Issue 33, finding 2. The broker keeps a gang whose last summary it received said started (ADR 0005), so an
     * agent restarted while cut off from Kafka must keep it too: its memory of what Kafka acknowledged is gone with
     * the old process, so it has to come from the member.
     */
    @Test
    void anAgentRestartedWhileCutOffKeepsTheCopyKafkaHadAsStartedAndFencesTheOneItHadAsNotStarted() throws Exception {
        // by hand from batch-job-v1's Karta: active 1 and ready 1 is Running (started); no status is not started
        job("running", "p-run", "{active: 1, ready: 1}");
        job("waiting", "p-wait");
        Eventually.until(
                Duration.ofSeconds(30),
                () -> reported("p-run").filter(WorkloadSummary::started).isPresent()
                        && reported("p-wait").filter(w -> !w.started()).isPresent(),
                () -> "summaries read from Kafka: " + workloads);
        agent.close(); // restarted, and the new process cannot reach Kafka
        agent = null;
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        try (AgentRuntime cut = fencingAgent("127.0.0.1:" + closed)) {
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> mlJob("waiting") == null,
                    () -> "the copy last reported not started is still there; health " + cut.health());
            Thread.sleep(2000); // two more fencing runs
            assertThat(mlJob("running"))
                    .as("the copy Kafka has as started, which the broker keeps, is kept here too")
                    .isNotNull();
            // what told the new process: the mark the old one wrote once Kafka acknowledged it, at the copy's epoch 1
            assertThat(mlJob("running").getMetadata().getAnnotations())
                    .containsEntry("cartograph.dev/started-reported", "1");
        }
    }

    Optional<WorkloadSummary> reported(String placement) {
        List<WorkloadSummary> seen = workloads.stream()
                .filter(w -> w.placementId().equals(Optional.of(placement)))
                .toList();
        return seen.isEmpty() ? Optional.empty() : Optional.of(seen.get(seen.size() - 1));
    }

    Job mlJob(String name) {
        return client.batch().v1().jobs().inNamespace("ml").withName(name).get();
    }

    @Test
    void aSecondAgentForTheSameClusterTakesItsCommandsOverAtOnceAndTheFirstStopsSayingWhy() throws Exception {
        Eventually.until(Duration.ofSeconds(30), agent::healthy, () -> "health " + agent.health());
        send(new Command.Delete(
                "p-none",
                1,
                Instant.now(),
                new WorkloadKey(
                        cluster, "team-x", "batch", "Job", "none"))); // the first agent holds the partition: it answers
        Eventually.until(Duration.ofSeconds(30), () -> !results.isEmpty());
        try (AgentRuntime second = startAgent()) { // same cluster, same static member id
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> agent.health().reason().contains("another agent for " + cluster),
                    () -> "first agent: " + agent.health());
            assertThat(agent.healthy()).isFalse();
            int before = results.size();
            send(new Command.Delete(
                    "p-none-2", 1, Instant.now(), new WorkloadKey(cluster, "team-x", "batch", "Job", "none-2")));
            // well under the 45 s session timeout a dynamic member would have to wait out
            Eventually.until(Duration.ofSeconds(15), () -> results.size() > before);
            assertThat(results.get(results.size() - 1).placementId()).isEqualTo("p-none-2");
            assertThat(second.healthy()).isTrue();
        }
    }

    @Test
    void anAgentInReachOfKafkaFencesNothing() throws Exception {
        agent.close();
        agent = null;
        job("placed", "p-kept");
        try (AgentRuntime reached = fencingAgent(kafka.bootstrapServers())) {
            Eventually.until(Duration.ofSeconds(30), reached::healthy, () -> "health " + reached.health());
            Thread.sleep(6000); // twice the fence time
            assertThat(client.batch()
                            .v1()
                            .jobs()
                            .inNamespace("ml")
                            .withName("placed")
                            .get())
                    .isNotNull();
            assertThat(reached.healthy()).isTrue();
        }
    }

    void crd(String group, String kind, String plural, String scope) {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName(plural + "." + group)
                        .endMetadata()
                        .withNewSpec()
                        .withGroup(group)
                        .withScope(scope)
                        .withVersions(new CustomResourceDefinitionVersionBuilder()
                                .withName(group.equals("run.ai") ? "v1alpha1" : "v1")
                                .withServed(true)
                                .withStorage(true)
                                .build())
                        .withNewNames()
                        .withKind(kind)
                        .withPlural(plural)
                        .withSingular(kind.toLowerCase())
                        .endNames()
                        .endSpec()
                        .build())
                .create();
    }

    // ---- helpers

    long gpusAllocated(String node) {
        if (clusters.isEmpty()) {
            return -1;
        }
        return clusters.get(clusters.size() - 1).nodes().stream()
                .filter(n -> n.name().equals(node))
                .findFirst()
                .map(NodeState::allocated)
                .map(r -> r.gpus())
                .orElse(-1L);
    }

    void send(Command c) throws Exception {
        sendRaw(c.placementId(), Wire.encode(c));
    }

    void sendRaw(String key, byte[] value) throws Exception {
        try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            p.send(new ProducerRecord<>(topics.commands(cluster), key, value)).get();
        }
    }

    void readAll() {
        reading = true;
        Map<String, ClusterAssembly> assemblies = new HashMap<>(); // the reader thread's own
        NodeParts parts = new NodeParts();
        reader = new Thread(
                () -> {
                    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(
                            Map.of(
                                    "bootstrap.servers",
                                    kafka.bootstrapServers(),
                                    "group.id",
                                    "it-" + System.nanoTime(),
                                    "auto.offset.reset",
                                    "earliest",
                                    "metadata.max.age.ms",
                                    "300"), // the agents create their topics: find them soon
                            new StringDeserializer(),
                            new ByteArrayDeserializer())) {
                        c.subscribe(Pattern.compile(Pattern.quote(topics.agentsPrefix()) + ".*"));
                        while (reading) {
                            for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                                AgentTopic kind = topics.owner(r.topic())
                                        .map(Topics.Owned::topic)
                                        .orElseThrow();
                                if (kind == AgentTopic.CLUSTER
                                        && Wire.decodeCluster(r.key(), r.value(), parts)
                                                instanceof Decoded.Ok<ClusterRecord> ok) {
                                    ClusterAssembly assembly = assemblies.computeIfAbsent(
                                            topics.owner(r.topic())
                                                    .orElseThrow()
                                                    .cluster(),
                                            ClusterAssembly::new);
                                    assembly.apply(ok.value());
                                    assembly.take().ifPresent(s -> clusters.add(s.summary()));
                                } else if (kind == AgentTopic.WORKLOADS
                                        && Wire.decodeWorkload(r.value()) instanceof Decoded.Ok<WorkloadSummary> ok) {
                                    workloads.add(ok.value());
                                } else if (kind == AgentTopic.EVENTS
                                        && Wire.decodeResult(r.value()) instanceof Decoded.Ok<CommandResult> ok) {
                                    results.add(ok.value());
                                }
                            }
                        }
                    }
                },
                "it-reader");
        reader.start();
    }

    void create(String text) throws Exception {
        client.resource(new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                .create();
    }

    static JsonNode yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    static Pod pod(String name, String node, int gpus) {
        return new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("c")
                .withImage("x")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new io.fabric8.kubernetes.api.model.Quantity(String.valueOf(gpus)))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build();
    }
}
