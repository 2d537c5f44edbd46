package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent as the Micronaut service it ships as: configured by properties, healthy once publishing,
 * also while its command topic does not exist yet (the broker creates it; health says so).
 */
@Timeout(120)
@EnableKubernetesMockClient(crud = true)
class AgentApplicationIT {
    KubernetesClient client;

    @TempDir
    Path dir;

    @Test
    void startsFromConfigurationAndReportsHealth() throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: m, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: m, context: {cluster: m, user: u}}]
                current-context: m
                """.formatted(client.getConfiguration().getMasterUrl()));
        try (LocalKafka kafka = startKafka();
                EmbeddedServer server = ApplicationContext.run(
                        EmbeddedServer.class,
                        Map.of(
                                "micronaut.server.port", "-1",
                                "cartograph.agent.cluster", "app-test",
                                "cartograph.agent.bootstrap-servers", kafka.bootstrapServers(),
                                "cartograph.agent.kubeconfig", kubeconfig.toString(),
                                "cartograph.agent.publish-interval", "200ms",
                                "cartograph.agent.heartbeat-interval", "1s"));
                HttpClient http = HttpClient.create(server.getURL())) {
            Eventually.asserted(Duration.ofSeconds(30), () -> {
                String body;
                try {
                    body = http.toBlocking().retrieve(HttpRequest.GET("/health"));
                } catch (RuntimeException e) {
                    throw new AssertionError(e);
                }
                assertThat(body)
                        .contains("\"status\":\"UP\"")
                        .contains("command topic cartograph.commands.app-test does not exist yet");
            });
            assertThat(server.getApplicationContext()
                            .getBean(AgentRuntime.class)
                            .incarnation())
                    .isNotBlank();
        }
    }

    /** Kafka with the topics the broker would have created, but not yet this agent's command topic. */
    LocalKafka startKafka() {
        LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"));
        Topics topics = new Topics("cartograph");
        kafka.createTopics(topics.clusters(), topics.workloads(), topics.events());
        return kafka;
    }
}
