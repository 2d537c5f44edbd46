package dev.cartograph.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The command loop against a real Kafka broker (KRaft, in-process), with failures injected through
 * its seams (the consumer it opens, the result writer) rather than by stopping Kafka and sleeping:
 * one failure of a record or of a Kafka call never ends it, a command is committed only once its
 * result is durable, a missing topic is waited for, and only Kafka's refusal of the agent ends it.
 */
@Timeout(120)
class CommandLoopIT {
    static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200));
    static LocalKafka kafka;
    static Path data;

    String cluster;
    Topics topics;
    Faults faults;
    FlakyResults results;
    final List<String> handledIds = new CopyOnWriteArrayList<>();
    Function<Command, CommandResult> handler = this::answer;
    CommandLoop loop;
    Thread thread;

    @BeforeAll
    static void kafka() throws Exception {
        data = Files.createTempDirectory("command-loop-it");
        kafka = LocalKafka.start(data);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    @BeforeEach
    void names() {
        cluster = "member-" + Long.toHexString(System.nanoTime());
        topics = new Topics("loop" + Long.toHexString(System.nanoTime()));
        faults = new Faults();
        // the agent's own events topic, as OwnTopics makes it; the command topic is created by each test (as the broker
        // does)
        kafka.createTopics(topics.of(cluster, Topics.AgentTopic.EVENTS));
        results =
                new FlakyResults(new Publisher(Map.of("bootstrap.servers", kafka.bootstrapServers()), topics, cluster));
    }

    @AfterEach
    void stop() throws Exception {
        if (loop != null) {
            loop.close();
            thread.join(15_000);
            assertThat(thread.isAlive()).as("the loop ends when closed").isFalse();
        }
        results.real.close();
    }

    void start() {
        String topic = topics.commands(cluster);
        Supplier<CommandSource> sources = () ->
                faults.wrap(CommandSource.kafka(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic, cluster));
        loop = new CommandLoop(cluster, sources, results, c -> handler.apply(c), FAST, Clock.systemUTC());
        thread = new Thread(loop, "command-loop-it");
        thread.start();
    }

    CommandResult answer(Command c) {
        handledIds.add(c.placementId());
        return new CommandResult(
                cluster, c.placementId(), c.epoch(), "apply", CommandResult.Outcome.APPLIED, "", Instant.now());
    }

    @Test
    void aFailedCommitDoesNotEndTheLoopAndTheCommandIsReadAgainOnANewConsumer() throws Exception {
        createTopic();
        faults.commits.add(() -> new CommitFailedException("injected: the group rebalanced"));
        start();
        send("p-1");
        Eventually.until(Duration.ofSeconds(30), () -> handledIds.size() >= 2, () -> "handled " + handledIds);
        send("p-2");
        Eventually.until(Duration.ofSeconds(30), () -> handledIds.contains("p-2"), () -> "handled " + handledIds);

        assertThat(handledIds).containsExactly("p-1", "p-1", "p-2"); // not committed the first time: delivered again
        assertThat(faults.opened.get()).isEqualTo(2);
        assertThat(loop.kafkaFailures()).isEqualTo(1);
        assertThat(loop.status().state()).isEqualTo(CommandLoop.Status.State.SERVING);
    }

    @Test
    void aFailedPollDoesNotEndTheLoop() throws Exception {
        createTopic();
        faults.polls.add(() -> new KafkaException("injected: the broker went away"));
        faults.polls.add(() -> new TimeoutException("injected: no answer in time"));
        start();
        send("p-1");
        Eventually.until(Duration.ofSeconds(30), () -> handledIds.contains("p-1"), () -> "handled " + handledIds);

        assertThat(handledIds).containsExactly("p-1");
        assertThat(loop.kafkaFailures()).isEqualTo(2);
        assertThat(faults.opened.get()).isEqualTo(3);
    }

    @Test
    void aResultKafkaDidNotConfirmIsNotCommittedTheProducerIsReplacedAndTheCommandHandledAgain() throws Exception {
        createTopic();
        results.failures.set(1);
        start();
        send("p-1");
        Eventually.until(
                Duration.ofSeconds(30), () -> results.delivered.size() == 1, () -> "delivered " + results.delivered);

        assertThat(handledIds).containsExactly("p-1", "p-1");
        assertThat(results.resets.get()).isEqualTo(1);
        assertThat(faults.opened.get()).isEqualTo(2);

        // committed once durable: a new loop on the same group reads nothing again
        loop.close();
        thread.join(15_000);
        handledIds.clear();
        start();
        send("p-2");
        Eventually.until(Duration.ofSeconds(30), () -> handledIds.contains("p-2"), () -> "handled " + handledIds);
        assertThat(handledIds).containsExactly("p-2");
    }

    @Test
    void aCommandWhoseHandlingThrowsIsAnsweredFailedAndTheNextIsHandled() throws Exception {
        createTopic();
        handler = c -> {
            if (c.placementId().equals("p-bad")) {
                throw new IllegalStateException("injected: a bug");
            }
            return answer(c);
        };
        start();
        send("p-bad");
        sendRaw("p-null", null); // a tombstone
        sendRaw("p-junk", "{\"not\": \"a command\"".getBytes());
        send("p-ok");
        Eventually.until(
                Duration.ofSeconds(30), () -> results.delivered.size() == 2, () -> "delivered " + results.delivered);

        assertThat(results.delivered)
                .extracting(CommandResult::placementId, CommandResult::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("p-bad", CommandResult.Outcome.FAILED),
                        org.assertj.core.groups.Tuple.tuple("p-ok", CommandResult.Outcome.APPLIED));
        assertThat(results.delivered.get(0).reason()).contains("IllegalStateException: injected: a bug");
        assertThat(loop.poisonRecords()).isEqualTo(2);
        assertThat(loop.kafkaFailures()).isZero();
    }

    @Test
    void waitsForTheCommandTopicWithoutCreatingItAndSaysSo() throws Exception {
        start();
        Eventually.until(
                Duration.ofSeconds(30),
                () -> loop.status().state() == CommandLoop.Status.State.WAITING_FOR_TOPIC,
                () -> "status " + loop.status());
        assertThat(loop.status().detail())
                .contains("command topic " + topics.commands(cluster) + " does not exist yet");
        Thread.sleep(500); // a few checks go by
        try (Admin admin = admin()) {
            assertThat(admin.listTopics().names().get()).doesNotContain(topics.commands(cluster));
        }

        createTopic(); // as the broker does
        send("p-1");
        Eventually.until(Duration.ofSeconds(30), () -> handledIds.contains("p-1"), () -> "status " + loop.status());
        assertThat(loop.status().state()).isEqualTo(CommandLoop.Status.State.SERVING);
        assertThat(loop.kafkaFailures()).isZero();
    }

    @Test
    void kafkaRefusingTheAgentEndsTheLoopAndTheStatusSaysWhy() throws Exception {
        createTopic();
        faults.polls.add(() -> new TopicAuthorizationException("injected: not authorized to read the topic"));
        start();
        thread.join(15_000);

        assertThat(thread.isAlive()).isFalse();
        assertThat(loop.status().state()).isEqualTo(CommandLoop.Status.State.FAILED);
        assertThat(loop.status().ended()).isTrue();
        assertThat(loop.status().detail())
                .contains("Kafka refuses this agent")
                .contains("not authorized to read the topic");
    }

    // ---- helpers

    Admin admin() {
        return Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
    }

    void createTopic() {
        kafka.createTopics(topics.commands(cluster));
    }

    void send(String id) throws Exception {
        sendRaw(
                id,
                Wire.encode(new Command.Apply(
                        id,
                        1,
                        Instant.now(),
                        Documents.json().createObjectNode().put("kind", "Job"))));
    }

    void sendRaw(String key, byte[] value) throws Exception {
        try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            p.send(new ProducerRecord<>(topics.commands(cluster), key, value)).get();
        }
    }

    /** Failures to inject, each once, in order, into the consumers the loop opens. */
    static final class Faults {
        final List<Supplier<RuntimeException>> polls = new CopyOnWriteArrayList<>();
        final List<Supplier<RuntimeException>> commits = new CopyOnWriteArrayList<>();
        final AtomicInteger opened = new AtomicInteger();

        CommandSource wrap(CommandSource real) {
            opened.incrementAndGet();
            return new CommandSource() {
                @Override
                public String topic() {
                    return real.topic();
                }

                @Override
                public boolean topicExists() {
                    return real.topicExists();
                }

                @Override
                public void subscribe() {
                    real.subscribe();
                }

                @Override
                public List<ConsumerRecord<String, byte[]>> poll(Duration timeout) {
                    List<ConsumerRecord<String, byte[]>> records = real.poll(timeout);
                    if (!polls.isEmpty()) {
                        throw polls.remove(0).get(); // after a real poll: its records are lost with the consumer
                    }
                    return records;
                }

                @Override
                public void commit(ConsumerRecord<String, byte[]> record) {
                    if (!commits.isEmpty()) {
                        throw commits.remove(0).get();
                    }
                    real.commit(record);
                }

                @Override
                public void wakeup() {
                    real.wakeup();
                }

                @Override
                public void close() {
                    real.close();
                }
            };
        }
    }

    /** The real publisher, failing the first {@code failures} results as Kafka would when it does not confirm in time. */
    static final class FlakyResults implements CommandLoop.Results {
        final Publisher real;
        final AtomicInteger failures = new AtomicInteger();
        final AtomicInteger resets = new AtomicInteger();
        final List<CommandResult> delivered = new CopyOnWriteArrayList<>();

        FlakyResults(Publisher real) {
            this.real = real;
        }

        @Override
        public void durably(CommandResult result) {
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new KafkaException("result not confirmed by Kafka within 30s", new TimeoutException("injected"));
            }
            real.durably(result);
            delivered.add(result);
        }

        @Override
        public void reset() {
            resets.incrementAndGet();
            real.reset();
        }
    }
}
