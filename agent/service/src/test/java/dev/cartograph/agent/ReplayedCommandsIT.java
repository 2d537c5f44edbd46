package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.kafka.KafkaAcls;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
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
 * Issue 33, finding 6: commands read again. The command topic is retention-deleted, not compacted, and the agent's
 * group starts from the earliest offset when it has none (its offsets expired, or were deleted), so every command of
 * the last days is read again. An apply of a placement whose copy a later delete removed must not create it again.
 * The agent against a real Kafka broker (KRaft, in-process) and a fabric8 mock API server (CRUD mode) as its member.
 */
@Timeout(180)
@EnableKubernetesMockClient(crud = true)
class ReplayedCommandsIT {
    static LocalKafka kafka;
    static Path data;
    KubernetesMockServer server;
    KubernetesClient client;
    AgentRuntime agent;
    String cluster;
    Topics topics;
    final List<CommandResult> results = new CopyOnWriteArrayList<>();
    final List<String> jobsAdded = new CopyOnWriteArrayList<>();
    Thread reader;
    volatile boolean reading;
    Watch watch;

    @BeforeAll
    static void kafka() throws Exception {
        data = Files.createTempDirectory("replayed-commands-it");
        kafka = LocalKafka.start(data);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    @BeforeEach
    void cluster() {
        cluster = "member-" + Long.toHexString(System.nanoTime());
        topics = new Topics("replay" + Long.toHexString(System.nanoTime()));
        kafka.createTopics(topics.commands(cluster)); // as the broker does; the agent creates its own topics
        readResults();
        agent = startAgent();
    }

    @AfterEach
    void stop() throws Exception {
        if (watch != null) {
            watch.close();
        }
        if (agent != null) {
            agent.close();
        }
        reading = false;
        reader.join(5000);
    }

    AgentRuntime startAgent() {
        AgentSettings settings = new AgentSettings(
                        cluster,
                        Map.of(),
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

    /**
     * Apply(P, 1) then Delete(P, 1), both carried out; the agent's committed offsets are lost and it is restarted, so
     * it reads both again from the beginning of the topic. By hand: the replayed apply is ordered before the delete
     * carried out (same term 0, same epoch 1, issued a minute earlier), so it is STALE and creates nothing; the
     * replayed delete finds nothing to delete.
     */
    @Test
    void aReplayedApplyOfADeletedPlacementCreatesNothingAfterTheOffsetsAreLost() throws Exception {
        Instant applied = Instant.now().minus(Duration.ofMinutes(2));
        Instant deleted = applied.plus(Duration.ofMinutes(1));
        send(new Command.Apply("p-gone", 1, applied, job("train")));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 1, () -> "results " + results);
        assertThat(job("team-x", "train")).as("the apply was carried out").isNotNull();
        send(new Command.Delete("p-gone", 1, deleted, copy("train")));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 2, () -> "results " + results);
        Eventually.until(Duration.ofSeconds(10), () -> job("team-x", "train") == null);
        assertThat(results)
                .extracting(CommandResult::command, CommandResult::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("apply", CommandResult.Outcome.APPLIED),
                        org.assertj.core.groups.Tuple.tuple("delete", CommandResult.Outcome.DELETED));

        agent.close();
        agent = null;
        loseOffsets();
        watchJobs("team-x");
        agent = startAgent();
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 4, () -> "results " + results);

        List<CommandResult> replayed = results.subList(2, 4);
        assertThat(replayed)
                .extracting(CommandResult::command, CommandResult::outcome)
                .as("read again from the earliest offset: the apply must not create the deleted copy again")
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("apply", CommandResult.Outcome.STALE),
                        org.assertj.core.groups.Tuple.tuple("delete", CommandResult.Outcome.DELETED));
        assertThat(replayed.get(0).reason())
                .isEqualTo("placement p-gone was deleted here since, by the delete at epoch 1 of term 0 issued "
                        + deleted + "; nothing is created");
        assertThat(replayed.get(1).reason()).isEqualTo("nothing to delete");
        assertThat(jobsAdded).as("Jobs created after the restart").isEmpty();
        assertThat(job("team-x", "train")).isNull();
        // what the restarted agent knew it from: the member's ConfigMap, written by the agent before
        assertThat(memory())
                .isEqualTo("{\"placements\":{\"p-gone\":{\"term\":0,\"epoch\":1,\"issued\":\"" + deleted + "\"}}}");
    }

    /**
     * Not every apply after a delete is one read again: a gang taken back and placed on the same cluster again gets an
     * apply at the same epoch issued later, and the next leader's apply carries a higher term, whatever its clock says.
     */
    @Test
    void anApplySentAfterTheDeleteIsAppliedAtTheSameEpochAndFromTheNextLeaderWithAClockBehind() throws Exception {
        Instant t0 = Instant.now().minus(Duration.ofMinutes(2));
        send(new Command.Apply("p-back", 1, t0, job("back")));
        send(new Command.Delete("p-back", 1, t0.plusSeconds(10), copy("back")));
        send(new Command.Apply("p-back", 1, t0.plusSeconds(11), job("back")));
        // leader of term 3 deletes; the leader of term 4, its clock a minute behind, applies it again
        send(new Command.Delete("p-next", 1, t0.plusSeconds(70), copy("next"), 3));
        send(new Command.Apply("p-next", 1, t0.plusSeconds(10), job("next"), List.of(), 4));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 5, () -> "results " + results);

        assertThat(results)
                .extracting(CommandResult::placementId, CommandResult::command, CommandResult::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("p-back", "apply", CommandResult.Outcome.APPLIED),
                        org.assertj.core.groups.Tuple.tuple("p-back", "delete", CommandResult.Outcome.DELETED),
                        org.assertj.core.groups.Tuple.tuple("p-back", "apply", CommandResult.Outcome.APPLIED),
                        org.assertj.core.groups.Tuple.tuple("p-next", "delete", CommandResult.Outcome.DELETED),
                        org.assertj.core.groups.Tuple.tuple("p-next", "apply", CommandResult.Outcome.APPLIED));
        assertThat(job("team-x", "back")).isNotNull();
        assertThat(job("team-x", "next")).isNotNull();
    }

    /** Rule 3: a command issued longer ago than command-max-age (7 days) can only be one read again. */
    @Test
    void aCommandIssuedLongerAgoThanTheMaxAgeIsStaleAndCreatesNothing() throws Exception {
        Instant issued = Instant.now().minus(Duration.ofDays(8));
        send(new Command.Apply("p-old", 1, issued, job("old")));
        Eventually.until(Duration.ofSeconds(30), () -> !results.isEmpty(), () -> "results " + results);

        assertThat(results.get(0).outcome()).isEqualTo(CommandResult.Outcome.STALE);
        assertThat(results.get(0).reason())
                .startsWith("issued " + issued + ", more than 168 hours (command-max-age) before it was read here at ")
                .endsWith(": only a command read again (its offset lost) is read so late; nothing is done");
        assertThat(job("team-x", "old")).isNull();
    }

    /**
     * Crash point, just before the delete is recorded: the agent records it before it deletes anything, so when the
     * record cannot be written (here refused once, as without the RBAC for it) nothing is deleted and the answer is
     * RETRY; the broker sends the delete again, and then it is recorded and carried out.
     */
    @Test
    void aDeleteThatCannotBeRecordedFirstDeletesNothingAndIsCarriedOutWhenSentAgain() throws Exception {
        Instant t0 = Instant.now().minus(Duration.ofMinutes(1));
        send(new Command.Apply("p-r", 1, t0, job("r")));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 1, () -> "results " + results);
        server.expect()
                .post()
                .withPath("/api/v1/namespaces/cartograph-system/configmaps")
                .andReturn(
                        403,
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                                + "\"message\":\"configmaps is forbidden\",\"reason\":\"Forbidden\",\"code\":403}")
                .once();
        send(new Command.Delete("p-r", 1, t0.plusSeconds(1), copy("r")));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 2, () -> "results " + results);
        assertThat(results.get(1).outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(results.get(1).reason())
                .isEqualTo("nothing deleted: the delete could not be recorded in ConfigMap"
                        + " cartograph-system/cartograph-agent-commands first: not written: the API server answered 403"
                        + " Forbidden: configmaps is forbidden (the agent needs get, create and update on configmaps in"
                        + " namespace cartograph-system)");
        assertThat(job("team-x", "r")).as("nothing deleted").isNotNull();

        send(new Command.Delete("p-r", 1, t0.plusSeconds(30), copy("r"))); // sent again by the broker
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 3, () -> "results " + results);
        assertThat(results.get(2).outcome()).isEqualTo(CommandResult.Outcome.DELETED);
        Eventually.until(Duration.ofSeconds(10), () -> job("team-x", "r") == null);
    }

    /**
     * Crash point, just after the delete is recorded and before the copy is deleted: the next process has the record
     * and not the delete's offset; an apply read again is refused and leaves the copy as it is, and the delete read
     * again deletes it.
     */
    @Test
    void anAgentThatDiedBetweenRecordingADeleteAndDeletingRefusesTheApplyReadAgainAndDeletesOnTheDeleteReadAgain()
            throws Exception {
        Instant applied = Instant.now().minus(Duration.ofMinutes(2));
        Instant deleted = applied.plusSeconds(60);
        // what the process that died left: its copy (placement p-half, epoch 1) and the delete recorded
        client.batch()
                .v1()
                .jobs()
                .inNamespace("team-x")
                .resource(Documents.json()
                        .treeToValue(dev.cartograph.agent.apply.Ownership.mark(job("half"), "p-half", 1), Job.class))
                .create();
        client.configMaps()
                .inNamespace("cartograph-system")
                .resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("cartograph-agent-commands")
                        .endMetadata()
                        .withData(Map.of(
                                "deletions",
                                "{\"placements\":{\"p-half\":{\"term\":0,\"epoch\":1,\"issued\":\"" + deleted
                                        + "\"}}}"))
                        .build())
                .create();
        send(new Command.Apply("p-half", 1, applied, job("half")));
        send(new Command.Delete("p-half", 1, deleted, copy("half")));
        Eventually.until(Duration.ofSeconds(30), () -> results.size() >= 2, () -> "results " + results);

        assertThat(results)
                .extracting(CommandResult::command, CommandResult::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("apply", CommandResult.Outcome.STALE),
                        org.assertj.core.groups.Tuple.tuple("delete", CommandResult.Outcome.DELETED));
        assertThat(results.get(1).reason()).isEqualTo("deleted Job team-x/half");
        Eventually.until(Duration.ofSeconds(10), () -> job("team-x", "half") == null);
    }

    // ---- helpers

    /** The agent's record of the deletes it carried out, as stored on the member. */
    String memory() {
        return client.configMaps()
                .inNamespace("cartograph-system")
                .withName("cartograph-agent-commands")
                .get()
                .getData()
                .get("deletions");
    }

    /**
     * What expired offsets or {@code kafka-consumer-groups --reset-offsets} leave: the agent's group without a
     * committed offset, so its next consumer starts from the earliest record. The static member the closed agent left
     * is removed first (Kafka deletes no offsets of a group whose members read the topic).
     */
    void loseOffsets() throws Exception {
        String group = KafkaAcls.agentGroup(cluster);
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.removeMembersFromConsumerGroup(
                            group, new RemoveMembersFromConsumerGroupOptions(List.of(new MemberToRemove(group))))
                    .all()
                    .get(10, TimeUnit.SECONDS);
            admin.deleteConsumerGroupOffsets(group, Set.of(new TopicPartition(topics.commands(cluster), 0)))
                    .all()
                    .get(10, TimeUnit.SECONDS);
            assertThat(admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get(10, TimeUnit.SECONDS))
                    .isEmpty();
        }
    }

    /** Records the name of every Job created in {@code namespace} from now on. */
    void watchJobs(String namespace) {
        watch = client.batch().v1().jobs().inNamespace(namespace).watch(new Watcher<Job>() {
            @Override
            public void eventReceived(Action action, Job job) {
                if (action == Action.ADDED) {
                    jobsAdded.add(job.getMetadata().getName());
                }
            }

            @Override
            public void onClose(WatcherException cause) {}
        });
    }

    Job job(String namespace, String name) {
        return client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    }

    WorkloadKey copy(String name) {
        return new WorkloadKey(cluster, "team-x", "batch", "Job", name);
    }

    static JsonNode job(String name) throws Exception {
        return Documents.read(new ByteArrayInputStream("""
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: %s, namespace: team-x}
                        spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
                        """.formatted(name).getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    void send(Command c) throws Exception {
        try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            p.send(new ProducerRecord<>(topics.commands(cluster), c.placementId(), Wire.encode(c)))
                    .get();
        }
    }

    /** Collects the agent's command results from its events topic, which it creates. */
    void readResults() {
        reading = true;
        String events = topics.of(cluster, Topics.AgentTopic.EVENTS);
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
                                    "300"),
                            new StringDeserializer(),
                            new ByteArrayDeserializer())) {
                        c.subscribe(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(events)));
                        while (reading) {
                            for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                                if (Wire.decodeResult(r.value()) instanceof Decoded.Ok<CommandResult> ok) {
                                    results.add(ok.value());
                                }
                            }
                        }
                    }
                },
                "replay-it-reader");
        reader.start();
    }
}
