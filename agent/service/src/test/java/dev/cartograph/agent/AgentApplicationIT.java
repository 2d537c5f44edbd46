package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent as the Micronaut service it ships as: configured by properties, healthy once publishing,
 * also while its command topic does not exist yet (the broker creates it; health says so); down, saying
 * why, while its own topics cannot be made, and up once an operator has made them.
 */
@Timeout(120)
@EnableKubernetesMockClient(crud = true)
class AgentApplicationIT {
    KubernetesClient client;

    @TempDir
    Path dir;

    @Test
    void startsFromConfigurationAndReportsHealth() throws Exception {
        Path kubeconfig = kubeconfig();
        try (LocalKafka kafka = startKafka();
                EmbeddedServer server = ApplicationContext.run(
                        EmbeddedServer.class,
                        Map.of(
                                "micronaut.server.port", "-1",
                                "cartograph.agent.cluster", "app-test",
                                "cartograph.agent.bootstrap-servers", kafka.bootstrapServers(),
                                "cartograph.agent.kubeconfig", kubeconfig.toString(),
                                "cartograph.agent.publish-interval", "200ms",
                                "cartograph.agent.heartbeat-interval", "1s",
                                "cartograph.agent.topic-replication-factor", "1", // one Kafka broker
                                "cartograph.agent.topic-min-insync-replicas", "1"));
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
            // its metrics on the same port, no token: summaries Kafka acknowledged, every informer listed
            Eventually.asserted(Duration.ofSeconds(30), () -> {
                String metrics = http.toBlocking().retrieve(HttpRequest.GET("/prometheus"));
                assertThat(metrics)
                        .containsPattern("(?m)^cartograph_agent_summaries_published_total [1-9]")
                        .contains("cartograph_agent_informer_synced{resource=\"nodes\"} 1.0")
                        .contains("cartograph_agent_informer_synced{resource=\"pods\"} 1.0")
                        .contains("cartograph_agent_commands_total{command=\"apply\",outcome=\"applied\"} 0.0")
                        .contains("# TYPE cartograph_agent_apply_seconds histogram");
            });
        }
    }

    @Test
    void anAgentThatCannotCreateItsTopicsIsDownSaysWhyAndKeepsTrying() throws Exception {
        Path kubeconfig = kubeconfig();
        try (LocalKafka kafka = startKafka();
                EmbeddedServer server = ApplicationContext.run(
                        EmbeddedServer.class,
                        Map.of(
                                "micronaut.server.port", "-1",
                                "cartograph.agent.cluster", "wide",
                                "cartograph.agent.bootstrap-servers", kafka.bootstrapServers(),
                                "cartograph.agent.kubeconfig", kubeconfig.toString(),
                                "cartograph.agent.publish-interval", "200ms",
                                "cartograph.agent.heartbeat-interval", "1s")); // 3 replicas by default; 1 broker
                HttpClient http = HttpClient.create(server.getURL())) {
            Eventually.asserted(Duration.ofSeconds(30), () -> {
                String body = health(http);
                assertThat(body)
                        .contains("\"status\":\"DOWN\"")
                        .contains("the topics [cartograph.from.wide.cluster, cartograph.from.wide.workloads,"
                                + " cartograph.from.wide.events] of cluster wide cannot be made yet")
                        .contains("needs 3 Kafka brokers, but 1 is up")
                        .contains("cartograph.agent.topic-replication-factor");
            });
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                        .noneMatch(t -> t.startsWith("cartograph.from."));
            }
            // an operator creates them (one copy each, all this Kafka holds): the agent, still trying, goes on
            Topics topics = new Topics("cartograph");
            kafka.createTopics(
                    topics.of("wide", AgentTopic.CLUSTER),
                    topics.of("wide", AgentTopic.WORKLOADS),
                    topics.of("wide", AgentTopic.EVENTS));
            Eventually.asserted(
                    Duration.ofSeconds(60), () -> assertThat(health(http)).contains("\"status\":\"UP\""));
        }
    }

    private Path kubeconfig() throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: m, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: m, context: {cluster: m, user: u}}]
                current-context: m
                """.formatted(client.getConfiguration().getMasterUrl()));
        return kubeconfig;
    }

    private static String health(HttpClient http) {
        try {
            return http.toBlocking().retrieve(HttpRequest.GET("/health"));
        } catch (HttpClientResponseException e) {
            return e.getResponse().getBody(String.class).orElse(""); // DOWN answers 503
        }
    }

    /** Kafka without any topic: the agent creates its own, the broker (absent here) the command topic. */
    LocalKafka startKafka() {
        return LocalKafka.start(dir.resolve("kafka"));
    }
}
