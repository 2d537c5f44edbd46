package dev.cartograph.kafka.testing;

import dev.cartograph.kafka.local.LocalKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.AppInfoParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The single Kafka broker an integration test runs against: Kafka in a container (Testcontainers,
 * image {@code apache/kafka} at the version of the Kafka client on the class path) when a container
 * runtime answers, else the in-process {@link LocalKafka}. It says which, and why, in the log (a
 * WARN when it falls back, so a run without containers says so). Both are configured alike: one
 * node, no automatic topic creation, replication factor 1.
 *
 * <p>{@code -Dcartograph.test.kafka=in-process} skips the probe; {@code =container} insists on a
 * container and fails when there is no runtime; {@code auto} (the default) probes once per JVM.
 * Without Docker the probe answers in well under a second (no socket, no {@code DOCKER_HOST}).
 *
 * <p>A module using it depends on this module's test-jar and on {@code org.testcontainers:kafka}
 * (both test scope). Restarting the broker is the in-process one's business: a test that needs
 * {@link LocalKafka#restart()} uses {@link LocalKafka} directly.
 *
 * <p>Thread safety: {@link #bootstrapServers()} may be called from any thread; start and close once.
 */
public final class TestKafka implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TestKafka.class);
    private static final String MODE_PROPERTY = "cartograph.test.kafka";

    /** Where the broker runs. */
    public enum Kind {
        CONTAINER,
        IN_PROCESS
    }

    private final Kind kind;
    private final String bootstrapServers;
    private final String description;
    private final AutoCloseable owned;

    private TestKafka(Kind kind, String bootstrapServers, String description, AutoCloseable owned) {
        this.kind = kind;
        this.bootstrapServers = bootstrapServers;
        this.description = description;
        this.owned = owned;
    }

    /**
     * Starts a broker: in a container when a runtime answers (see the class comment), else in this
     * JVM with its log directory at {@code dataDir}. Returns once it accepts clients.
     */
    public static TestKafka start(Path dataDir) {
        Objects.requireNonNull(dataDir, "dataDir");
        String mode = System.getProperty(MODE_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        ContainerRuntime runtime = switch (mode) {
            case "in-process" -> new ContainerRuntime(false, MODE_PROPERTY + "=in-process");
            case "container", "auto" -> ContainerRuntime.probe();
            default ->
                throw new IllegalArgumentException(
                        MODE_PROPERTY + " must be auto, container or in-process, not " + mode);
        };
        if (runtime.available()) {
            return container();
        }
        if (mode.equals("container")) {
            throw new IllegalStateException(
                    MODE_PROPERTY + "=container, but no container runtime answers: " + runtime.why());
        }
        LocalKafka local = LocalKafka.start(dataDir);
        TestKafka kafka = new TestKafka(
                Kind.IN_PROCESS,
                local.bootstrapServers(),
                "in-process LocalKafka at " + local.bootstrapServers() + " (no container runtime: " + runtime.why()
                        + ")",
                local);
        LOG.warn("Kafka for this test: {}", kafka.description);
        return kafka;
    }

    private static TestKafka container() {
        String image = "apache/kafka:" + AppInfoParser.getVersion();
        KafkaContainer container = new KafkaContainer(image)
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .withStartupTimeout(Duration.ofMinutes(2));
        container.start();
        TestKafka kafka = new TestKafka(
                Kind.CONTAINER,
                container.getBootstrapServers(),
                "Testcontainers " + image + " at " + container.getBootstrapServers(),
                container);
        LOG.info("Kafka for this test: {}", kafka.description);
        return kafka;
    }

    public Kind kind() {
        return kind;
    }

    /** The {@code bootstrap.servers} value for clients. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Which broker this is and, for the in-process one, why no container was used. */
    public String description() {
        return description;
    }

    /** Creates each topic that does not exist yet, one partition, replication factor 1. */
    public void createTopics(String... topics) {
        List<NewTopic> wanted =
                List.of(topics).stream().map(t -> new NewTopic(t, 1, (short) 1)).toList();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            for (var created : admin.createTopics(wanted).values().entrySet()) {
                try {
                    created.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + created.getKey(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating " + List.of(topics), e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Kafka did not create " + List.of(topics) + " within 30 s", e);
        }
    }

    @Override
    public void close() throws Exception {
        owned.close();
    }

    @Override
    public String toString() {
        return description;
    }

    /** Whether a container runtime answers, asked once per JVM (Testcontainers caches the answer too). */
    private record ContainerRuntime(boolean available, String why) {
        private static ContainerRuntime probed;

        static synchronized ContainerRuntime probe() {
            if (probed == null) {
                long t0 = System.nanoTime();
                boolean available;
                String why;
                try {
                    available = DockerClientFactory.instance().isDockerAvailable();
                    why = available ? "" : "Testcontainers found no Docker environment";
                } catch (RuntimeException | LinkageError e) {
                    available = false;
                    why = e.toString();
                }
                probed = new ContainerRuntime(
                        available, why + " (probed in " + (System.nanoTime() - t0) / 1_000_000 + " ms)");
            }
            return probed;
        }
    }
}
