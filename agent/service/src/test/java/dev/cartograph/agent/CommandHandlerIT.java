package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.agent.kube.Unanswering;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.WorkloadKey;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Commands through the agent's handler when the member's API server cannot answer a read (issue 33, finding 3):
 * the member (a fabric8 mock API server, CRUD mode, with answers put in front) holds a copy its informer cache has
 * not seen yet — simulated by a cache that watches a second, empty mock server, as a cache lagging a write would —
 * and a Delete that cannot read the copy must not answer DELETED: the broker would release the hub object's
 * finalizer while the copy runs on.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class CommandHandlerIT {
    static final String EVAL = "/apis/batch/v1/namespaces/ml/jobs/eval";
    static final Definitions CATALOG = Catalog.load().definitions();

    KubernetesMockServer server;
    KubernetesClient client;
    KubernetesClient
            fast; // no retries of fabric8's own, a short time-out: what the handler does with a failure is tested
    KubernetesMockServer lagging;
    KubernetesClient laggingClient;
    ClusterCache cache;
    CommandHandler handler;

    @BeforeEach
    void agent() throws Exception {
        fast = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .withRequestTimeout(1000)
                        .build())
                .build();
        lagging = new KubernetesMockServer(
                new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        lagging.init();
        laggingClient = lagging.createClient();
        cache = new ClusterCache(laggingClient, CATALOG, change -> {});
        cache.start();
        KubeApplier applier = new KubeApplier(fast, cache::plural, false, Duration.ofMillis(1), 2);
        ApplyPolicy policy = new ApplyPolicy(CATALOG, Set.of(), ApplyPolicy.SYSTEM_NAMESPACES);
        handler = new CommandHandler("member", cache, applier, () -> policy, new PendingChanges(), Clock.systemUTC());
        // p-1's copy at epoch 1, as an agent created it
        client.batch()
                .v1()
                .jobs()
                .inNamespace("ml")
                .resource(Documents.json()
                        .treeToValue(
                                Documents.read(new ByteArrayInputStream("""
                                                apiVersion: batch/v1
                                                kind: Job
                                                metadata:
                                                  name: eval
                                                  namespace: ml
                                                  labels: {cartograph.dev/placement-id: p-1, app.kubernetes.io/managed-by: cartograph-agent}
                                                  annotations: {cartograph.dev/epoch: "1"}
                                                spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
                                                """.getBytes(StandardCharsets.UTF_8)))
                                        .get(0),
                                Job.class))
                .create();
    }

    @AfterEach
    void stop() {
        cache.close();
        fast.close();
        laggingClient.close();
        lagging.destroy();
    }

    CommandResult delete() {
        return handler.apply(
                new Command.Delete("p-1", 2, Instant.now(), new WorkloadKey("member", "ml", "batch", "Job", "eval")));
    }

    Job eval() {
        return client.batch().v1().jobs().inNamespace("ml").withName("eval").get();
    }

    static String status(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
    }

    @Test
    void aDeleteThatMeetsThrottlingOnItsReadIsRetryAndDeletesOnceTheApiServerAnswers() {
        assertThat(cache.workload(
                        new dev.cartograph.interpreter.kind.GroupVersionKind("batch", "v1", "Job"), "ml", "eval"))
                .as("the cache has not seen the copy")
                .isEmpty();
        server.expect()
                .get()
                .withPath(EVAL)
                .andReturn(429, status(429, "TooManyRequests", "Too many requests, please try again later."))
                .withHeader("Retry-After", "1")
                .once();

        CommandResult throttled = delete();

        assertThat(throttled.outcome())
                .as("a Delete that could not read its copy (%s)", throttled.reason())
                .isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(throttled.reason()).contains("429 TooManyRequests");
        assertThat(eval()).as("the copy runs on").isNotNull();

        CommandResult answered = delete(); // the throttling has stopped

        assertThat(answered.outcome()).isEqualTo(CommandResult.Outcome.DELETED);
        assertThat(answered.reason()).startsWith("deleted Job ml/eval");
        assertThat(eval()).isNull();
    }

    /** A kind whose discovery fails is not watched: a Delete of its copy cannot find it, nor rule it out. */
    @Test
    void aDeleteOfAKindThatCannotBeWatchedForNowIsRetryNotNothingToDelete() {
        Unanswering api = new Unanswering();
        api.fail("/apis/kubeflow.org/v1", 503);
        KubernetesMockServer member =
                new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
        member.init();
        try (KubernetesClient memberClient = new KubernetesClientBuilder()
                        .withConfig(new ConfigBuilder(member.createClient().getConfiguration())
                                .withRequestRetryBackoffLimit(0)
                                .build())
                        .build();
                ClusterCache unanswered = new ClusterCache(memberClient, CATALOG, change -> {})) {
            unanswered.start();
            ApplyPolicy policy = new ApplyPolicy(CATALOG, Set.of(), ApplyPolicy.SYSTEM_NAMESPACES);
            CommandHandler h = new CommandHandler(
                    "member",
                    unanswered,
                    new KubeApplier(memberClient, unanswered::plural, false, Duration.ofMillis(1), 2),
                    () -> policy,
                    new PendingChanges(),
                    Clock.systemUTC());

            CommandResult r = h.apply(new Command.Delete(
                    "p-2", 1, Instant.now(), new WorkloadKey("member", "ml", "kubeflow.org", "PyTorchJob", "train")));

            assertThat(r.outcome()).as(r.reason()).isEqualTo(CommandResult.Outcome.RETRY);
            assertThat(r.reason())
                    .isEqualTo("nothing done: PyTorchJob.v1.kubeflow.org cannot be watched here for now: discovery of"
                            + " kubeflow.org/v1: the API server answered 503 ServiceUnavailable: injected by the test;"
                            + " asked again");
        } finally {
            member.destroy();
        }
    }

    @Test
    void aServerErrorOrNoAnswerOnTheReadIsRetryToo() {
        server.expect()
                .get()
                .withPath(EVAL)
                .andReturn(500, status(500, "InternalError", "etcdserver: request timed out"))
                .once();
        server.expect()
                .get()
                .delay(3, TimeUnit.SECONDS) // past the client's 1 s time-out
                .withPath(EVAL)
                .andReturn(200, "{}")
                .once();

        assertThat(delete().outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        CommandResult timedOut = delete();
        assertThat(timedOut.outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(timedOut.reason()).contains("did not answer");
        assertThat(eval()).isNotNull();
        assertThat(delete().outcome()).isEqualTo(CommandResult.Outcome.DELETED);
        assertThat(eval()).isNull();
    }
}
