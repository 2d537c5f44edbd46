package dev.cartograph.agent.fence;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The started-reported marks against a fabric8 mock API server (CRUD mode, with a throttled answer put in front):
 * a copy Kafka acknowledged as started is marked at its epoch, a throttled write is tried again after a backoff
 * without holding anything else up, and a copy Kafka then has as not started loses its mark.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class StartedMarksIT {
    static final GroupVersionKind JOB = new GroupVersionKind("batch", "v1", "Job");
    static final String JOBS = "/apis/batch/v1/namespaces/ml/jobs";
    static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    KubernetesMockServer server;
    KubernetesClient client;
    KubernetesClient fast; // no retries of fabric8's own: the marks' backoff is what is tested
    Instant now = T0;
    SelfFence fence;
    StartedMarks marks;

    @BeforeEach
    void marks() throws Exception {
        fast = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        Clock clock = new Clock() {
            @Override
            public Instant instant() {
                return now;
            }

            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }
        };
        fence = new SelfFence(SelfFence.Settings.DEFAULT, T0);
        KubeApplier applier = new KubeApplier(fast, kind -> Optional.of("jobs"), false, Duration.ofMillis(1), 1);
        marks = new StartedMarks(fence, this::read, applier, clock);
        for (String name : new String[] {"running", "second"}) {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace("ml")
                    .resource(Documents.json().treeToValue(copy(name), Job.class))
                    .create();
        }
    }

    @AfterEach
    void close() {
        fast.close();
    }

    /** A copy as an agent created it: placement p-NAME, epoch 2. */
    static JsonNode copy(String name) throws Exception {
        return Documents.read(new ByteArrayInputStream("""
                        apiVersion: batch/v1
                        kind: Job
                        metadata:
                          name: %s
                          namespace: ml
                          labels: {cartograph.dev/placement-id: p-%s, app.kubernetes.io/managed-by: cartograph-agent}
                          annotations: {cartograph.dev/epoch: "2"}
                        spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
                        """.formatted(name, name).getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    Optional<JsonNode> read(ClusterCache.Change.Workload w) {
        return Optional.ofNullable(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(w.namespace())
                        .withName(w.name())
                        .get())
                .map(j -> Documents.json().valueToTree(j));
    }

    Map<String, String> annotations(String name) {
        return client.batch()
                .v1()
                .jobs()
                .inNamespace("ml")
                .withName(name)
                .get()
                .getMetadata()
                .getAnnotations();
    }

    static ClusterCache.Change.Workload workload(String name) {
        return new ClusterCache.Change.Workload(JOB, "ml", name);
    }

    @Test
    void aStartedCopyIsMarkedAtItsEpochAndAThrottledWriteIsTriedAgainAfterABackoff() throws Exception {
        server.expect()
                .patch()
                .withPath(JOBS + "/running")
                .andReturn(
                        429,
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                                + "\"message\":\"Too many requests, please try again later.\","
                                + "\"reason\":\"TooManyRequests\",\"details\":{\"retryAfterSeconds\":1},\"code\":429}")
                .once();
        fence.delivered("p-running", 2, true);
        marks.acknowledged(workload("running"));
        fence.delivered("p-second", 2, true);
        marks.acknowledged(workload("second"));

        marks.run(); // throttled: nothing written, and what waits behind it waits too
        assertThat(annotations("running")).doesNotContainKey("cartograph.dev/started-reported");
        int requests = server.getRequestCount();
        marks.run(); // within the backoff (1 s): nothing asked
        assertThat(server.getRequestCount()).isEqualTo(requests);

        now = T0.plusSeconds(1);
        marks.run();
        assertThat(annotations("running")).containsEntry("cartograph.dev/started-reported", "2");
        assertThat(annotations("second")).containsEntry("cartograph.dev/started-reported", "2");
        assertThat(annotations("running")).containsEntry("cartograph.dev/epoch", "2"); // nothing else written
    }

    @Test
    void aCopyKafkaThenHasAsNotStartedLosesItsMarkAndOneKafkaNeverHadIsNotMarked() {
        fence.delivered("p-running", 2, true);
        marks.acknowledged(workload("running"));
        marks.run();
        assertThat(annotations("running")).containsEntry("cartograph.dev/started-reported", "2");

        fence.delivered("p-running", 2, false); // suspended: the broker now has it as not started
        marks.acknowledged(workload("running"));
        marks.acknowledged(workload("second")); // acknowledged as nothing the fence knows of: left alone
        marks.run();
        // removed by the merge patch's null (the CRUD mock keeps the key with a null value; either reads as no mark)
        assertThat(annotations("running").get("cartograph.dev/started-reported"))
                .isNull();
        assertThat(annotations("second")).doesNotContainKey("cartograph.dev/started-reported");
    }
}
