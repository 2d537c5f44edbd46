package dev.cartograph.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The applier against a fabric8 mock API server in expectations mode, answering as a real API server
 * does (its Status bodies): what may pass is RETRY, only the server's refusals are FAILED, and a
 * create whose first answer was lost counts as done when the object there is this placement's.
 */
@Timeout(60)
@EnableKubernetesMockClient
class KubeApplierIT {
    static final ApplyPolicy POLICY =
            new ApplyPolicy(Catalog.load().definitions(), Set.of(), ApplyPolicy.SYSTEM_NAMESPACES);
    static final String JOBS = "/apis/batch/v1/namespaces/ml/jobs";
    static final int ATTEMPTS = 3;

    KubernetesMockServer server;
    KubernetesClient client;
    KubernetesClient
            fast; // no retries of fabric8's own, a short request time-out: the applier's retry is what is tested
    KubeApplier applier;

    @BeforeEach
    void applier() {
        fast = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .withRequestTimeout(500)
                        .build())
                .build();
        applier = new KubeApplier(fast, kind -> Optional.of("jobs"), false, Duration.ofMillis(1), ATTEMPTS);
    }

    @AfterEach
    void close() {
        fast.close();
    }

    static JsonNode yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    static JsonNode job() throws Exception {
        return yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: eval, namespace: ml}
                spec: {parallelism: 2, template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
                """);
    }

    /** What the agent means to create for placement p-1 at epoch 2. */
    static JsonNode marked() throws Exception {
        return ((ApplyPolicy.Decision.Create)
                        POLICY.decide(new Command.Apply("p-1", 2, Instant.EPOCH, job()), Optional.empty()))
                .manifest();
    }

    KubeApplier.Outcome create() throws Exception {
        return applier.carryOut(new ApplyPolicy.Decision.Create(marked()));
    }

    static String status(int code, String reason, String message, String details) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message.replace("\"", "\\\"")
                + "\"" + (reason.isEmpty() ? "" : ",\"reason\":\"" + reason + "\"")
                + (details.isEmpty() ? "" : ",\"details\":" + details)
                + ",\"code\":" + code + "}";
    }

    static final String ALREADY_EXISTS = status(
            409,
            "AlreadyExists",
            "jobs.batch \"eval\" already exists",
            "{\"name\":\"eval\",\"group\":\"batch\",\"kind\":\"jobs\"}");

    int posts() throws InterruptedException {
        int n = 0;
        for (int i = server.getRequestCount(); i > 0; i--) {
            var r = server.takeRequest(1, TimeUnit.SECONDS);
            if (r != null && r.getMethod().equals("POST")) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aCreateThatTimedOutButWentThroughAndThenAnsweredAlreadyExistsCountsAsApplied() throws Exception {
        JsonNode created = marked(); // what the server stored: our marks, placement p-1, epoch 2
        server.expect()
                .post()
                .delay(2, TimeUnit.SECONDS)
                .withPath(JOBS)
                .andReturn(201, created.toString())
                .once();
        server.expect().post().withPath(JOBS).andReturn(409, ALREADY_EXISTS).once();
        server.expect()
                .get()
                .withPath(JOBS + "/eval")
                .andReturn(200, created.toString())
                .once();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome.outcome()).isEqualTo(CommandResult.Outcome.APPLIED);
        assertThat(outcome.reason()).contains("already created Job ml/eval");
    }

    @Test
    void alreadyExistsForAnObjectCartographDidNotCreateIsFailedAndTheObjectLeftAlone() throws Exception {
        server.expect().post().withPath(JOBS).andReturn(409, ALREADY_EXISTS).once();
        server.expect()
                .get()
                .withPath(JOBS + "/eval")
                .andReturn(200, job().toString())
                .once();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome.outcome()).isEqualTo(CommandResult.Outcome.FAILED);
        assertThat(outcome.reason())
                .contains("Job ml/eval already exists and was not created by Cartograph for placement p-1");
    }

    @Test
    void alreadyExistsAtAnOlderEpochOfTheSamePlacementIsUpdated() throws Exception {
        JsonNode older = ((ApplyPolicy.Decision.Create)
                        POLICY.decide(new Command.Apply("p-1", 1, Instant.EPOCH, job()), Optional.empty()))
                .manifest();
        server.expect().post().withPath(JOBS).andReturn(409, ALREADY_EXISTS).once();
        server.expect()
                .get()
                .withPath(JOBS + "/eval")
                .andReturn(200, older.toString())
                .times(2); // fabric8's patch reads first
        server.expect()
                .patch()
                .withPath(JOBS + "/eval")
                .andReturn(200, marked().toString())
                .once();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome).isEqualTo(new KubeApplier.Outcome(CommandResult.Outcome.APPLIED, "updated Job ml/eval"));
    }

    @Test
    void a500ThroughEveryRetryIsRetryNotFailed() throws Exception {
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(500, status(500, "InternalError", "etcdserver: request timed out", ""))
                .always();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome.outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(outcome.reason())
                .contains("500 InternalError: etcdserver: request timed out")
                .contains("3 attempts");
        assertThat(posts()).isEqualTo(ATTEMPTS);
    }

    @Test
    void a503ThenAnAnswerIsApplied() throws Exception {
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(
                        503,
                        status(503, "ServiceUnavailable", "the server is currently unable to handle the request", ""))
                .once();
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(201, marked().toString())
                .once();

        assertThat(create()).isEqualTo(new KubeApplier.Outcome(CommandResult.Outcome.APPLIED, "created Job ml/eval"));
    }

    @Test
    void throttlingIsRetry() throws Exception {
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(
                        429,
                        status(
                                429,
                                "TooManyRequests",
                                "Too many requests, please try again later.",
                                "{\"retryAfterSeconds\":1}"))
                .always();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome.outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(outcome.reason()).contains("429 TooManyRequests");
    }

    @Test
    void noAnswerInTimeIsRetry() throws Exception {
        server.expect()
                .post()
                .delay(2, TimeUnit.SECONDS)
                .withPath(JOBS)
                .andReturn(201, marked().toString())
                .always();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome.outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(outcome.reason()).contains("did not answer");
    }

    @Test
    void anOpenCircuitIsRetryAndSendsNothing() throws Exception {
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(500, status(500, "InternalError", "etcdserver: leader changed", ""))
                .always();
        for (int i = 0; i < 4; i++) { // 4 × 3 failed attempts: past the breaker's minimum of 10 calls, all failed
            assertThat(create().outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        }
        int before = server.getRequestCount();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome.outcome()).isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(outcome.reason()).contains("circuit open");
        assertThat(server.getRequestCount()).isEqualTo(before);
    }

    @Test
    void anInvalidObjectIsFailedWithTheServersMessageAndNotRetried() throws Exception {
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(
                        422,
                        status(
                                422,
                                "Invalid",
                                "Job.batch \"eval\" is invalid: spec.template.spec.containers[0].image: Required value",
                                "{\"name\":\"eval\",\"group\":\"batch\",\"kind\":\"Job\",\"causes\":[{\"reason\":\"FieldValueRequired\","
                                        + "\"message\":\"Required value\",\"field\":\"spec.template.spec.containers[0].image\"}]}"))
                .always();

        KubeApplier.Outcome outcome = create();

        assertThat(outcome)
                .isEqualTo(
                        new KubeApplier.Outcome(
                                CommandResult.Outcome.FAILED,
                                "the API server refused it: 422 Invalid: "
                                        + "Job.batch \"eval\" is invalid: spec.template.spec.containers[0].image: Required value"));
        assertThat(posts()).isEqualTo(1);
    }

    @Test
    void forbiddenByRbacIsFailedWithTheServersMessage() throws Exception {
        String message =
                "jobs.batch is forbidden: User \"system:serviceaccount:cartograph:agent\" cannot create resource \"jobs\" "
                        + "in API group \"batch\" in the namespace \"ml\"";
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(403, status(403, "Forbidden", message, "{\"group\":\"batch\",\"kind\":\"jobs\"}"))
                .always();

        assertThat(create())
                .isEqualTo(new KubeApplier.Outcome(
                        CommandResult.Outcome.FAILED, "the API server refused it: 403 Forbidden: " + message));
    }

    @Test
    void anAdmissionWebhooksDenialIsFailedWithItsReason() throws Exception {
        String message =
                "admission webhook \"validation.gpu-quota.example.com\" denied the request: team ml may use at most 16 GPUs";
        server.expect()
                .post()
                .withPath(JOBS)
                .andReturn(400, status(400, "BadRequest", message, ""))
                .always();

        assertThat(create())
                .isEqualTo(new KubeApplier.Outcome(
                        CommandResult.Outcome.FAILED, "the API server refused it: 400 BadRequest: " + message));
    }
}
