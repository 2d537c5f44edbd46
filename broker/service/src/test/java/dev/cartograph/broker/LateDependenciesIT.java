package dev.cartograph.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.hub.HubConnection;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.placement.Planner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A broker started before Kafka and before its hub is reachable keeps running, and works once both come up. */
@Timeout(180)
class LateDependenciesIT {

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void kafkaAndTheHubMayComeAfterTheBroker() throws Exception {
        int kafkaPort = freePort();
        int hubPort = freePort();
        String prefix = "late" + Long.toHexString(System.nanoTime());
        KubernetesClient hubClient = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("http://127.0.0.1:" + hubPort)
                        .withRequestTimeout(2000)
                        .withConnectionTimeout(1000)
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        BrokerSettings settings = new BrokerSettings(
                        "late",
                        prefix,
                        Map.of(
                                "bootstrap.servers",
                                "127.0.0.1:" + kafkaPort,
                                "default.api.timeout.ms",
                                "5000",
                                "request.timeout.ms",
                                "3000",
                                "reconnect.backoff.max.ms",
                                "1000"),
                        Duration.ofSeconds(3),
                        Duration.ofSeconds(30),
                        "cartograph.dev/federate=true",
                        Planner.Policy.BIN_PACK,
                        false,
                        "",
                        "",
                        Duration.ofMillis(250))
                .withTopicSettings(dev.cartograph.protocol.TopicSettings.SINGLE_BROKER);
        try (BrokerRuntime broker = new BrokerRuntime(
                settings, new HubConnection(hubClient), Catalog.load().definitions(), Clock.systemUTC())) {
            broker.start(); // neither Kafka nor the hub is there: this must not throw
            Thread.sleep(3000);
            assertThat(broker.running()).isTrue();
            assertThat(broker.watchingHub()).isFalse();
            assertThat(broker.view().caughtUp()).isFalse();

            Path data = Files.createTempDirectory("late-kafka");
            try (LocalKafka kafka = LocalKafka.start(data, kafkaPort);
                    Federation fed = new Federation(kafka::bootstrapServers, prefix)) {
                fed.member("a", "NVIDIA-H100-80GB-HBM3", 1);
                Eventually.until(
                        Duration.ofSeconds(90),
                        () -> broker.view().caughtUp()
                                && broker.view().fleet().clusters().size() == 1);

                KubernetesMockServer hub = new KubernetesMockServer(
                        new Context(),
                        new MockWebServer(),
                        new HashMap<>(),
                        new KubernetesCrudDispatcher(List.of()),
                        false);
                hub.init(InetAddress.getLoopbackAddress(), hubPort);
                try (KubernetesClient late = hub.createClient()) {
                    Federation.crd(late);
                    Eventually.until(Duration.ofSeconds(30), broker::watchingHub);
                    GenericKubernetesResource job = Federation.create(late, Federation.JOBS, """
                            apiVersion: batch/v1
                            kind: Job
                            metadata: {name: late, namespace: ml, labels: {cartograph.dev/federate: "true"}}
                            spec:
                              template:
                                spec:
                                  restartPolicy: Never
                                  containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "8"}}}]
                            """);
                    Eventually.asserted(
                            Duration.ofSeconds(30),
                            () -> assertThat(fed.copies("a", Federation.JOBS))
                                    .singleElement()
                                    .satisfies(c -> assertThat(c.getMetadata().getLabels())
                                            .containsEntry(
                                                    "cartograph.dev/placement-id",
                                                    job.getMetadata().getUid())));
                } finally {
                    hub.destroy();
                }
            }
        } finally {
            hubClient.close();
        }
    }
}
