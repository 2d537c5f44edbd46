package dev.cartograph.kafka.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/** TestKafka runs in a container exactly when a container runtime answers, says which, and either one serves clients. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TestKafkaIT {

    @TempDir
    Path dir;

    @Test
    void picksAContainerOnlyWhenARuntimeAnswersAndServesClientsEitherWay() throws Exception {
        long t0 = System.nanoTime();
        try (TestKafka kafka = TestKafka.start(dir.resolve("kafka"))) {
            System.out.printf(
                    "TestKafka: %s, ready in %d ms%n", kafka.description(), (System.nanoTime() - t0) / 1_000_000);
            boolean docker = DockerClientFactory.instance().isDockerAvailable();
            assertThat(kafka.kind()).isEqualTo(docker ? TestKafka.Kind.CONTAINER : TestKafka.Kind.IN_PROCESS);
            if (!docker) {
                assertThat(kafka.description())
                        .startsWith("in-process LocalKafka at 127.0.0.1:")
                        .contains("no container runtime");
                // probing must not hold a build without Docker up
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
            }

            kafka.createTopics("greetings");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            kafka.bootstrapServers(),
                            ProducerConfig.ACKS_CONFIG,
                            "all"),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>("greetings", "k", "hello")).get(30, TimeUnit.SECONDS);
            }
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            kafka.bootstrapServers(),
                            ConsumerConfig.GROUP_ID_CONFIG,
                            "g",
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest"),
                    new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of("greetings"));
                List<String> values = new ArrayList<>();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (values.isEmpty() && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        values.add(r.value());
                    }
                }
                assertThat(values).containsExactly("hello");
            }
        }
    }
}
