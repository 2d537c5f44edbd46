package dev.cartograph.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.agent.order.CommandOrder;
import dev.cartograph.agent.order.Deletions;
import dev.cartograph.agent.order.Stamp;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.WorkloadKey;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The deletes an agent carried out, kept in a ConfigMap of its namespace, against a fabric8 mock API server (CRUD
 * mode, with failing answers put in front): written with the resourceVersion read, so a concurrent writer's entry is
 * kept; a throttled write is tried again; a refusal says which permission is missing; a record edited by hand is taken
 * for everything forgotten.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class ConfigMapDeletionsIT {
    static final String CONFIGMAPS = "/api/v1/namespaces/cartograph-system/configmaps";
    static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
    static final Deletions.Limits LIMITS = Deletions.Limits.DEFAULT;

    KubernetesMockServer server;
    KubernetesClient client;
    KubernetesClient fast; // no retries of fabric8's own: the store's are what is tested
    ConfigMapDeletions store;

    @BeforeEach
    void store() {
        fast = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        store = new ConfigMapDeletions(
                fast, "cartograph-system", new Writes(Duration.ofMillis(1), 4), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void close() {
        fast.close();
    }

    static Command.Delete delete(String placement, Instant issued) {
        return new Command.Delete(placement, 1, issued, new WorkloadKey("east", "ml", "batch", "Job", placement), 2);
    }

    ConfigMap stored() {
        return client.configMaps()
                .inNamespace("cartograph-system")
                .withName("cartograph-agent-commands")
                .get();
    }

    @Test
    void nothingStoredReadsAsNothingRememberedAndTheFirstDeleteCreatesTheConfigMap() {
        assertThat(store.read()).isEqualTo(Deletions.NONE);
        Instant issued = NOW.minusSeconds(5);
        store.update(d -> d.with(delete("p-1", issued), NOW, LIMITS));

        ConfigMap cm = stored();
        assertThat(cm.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "cartograph-agent");
        assertThat(cm.getData())
                .containsExactly(Map.entry(
                        "deletions",
                        "{\"placements\":{\"p-1\":{\"term\":2,\"epoch\":1,\"issued\":\"2026-12-03T09:59:55Z\"}}}"));
        assertThat(store.read().last()).containsExactly(Map.entry("p-1", new Stamp(2, 1, issued)));
    }

    @Test
    void aWriteRacedByAnotherWriterIsMadeAgainOverWhatThatWriterWrote() {
        store.update(d -> d.with(delete("p-1", NOW.minusSeconds(30)), NOW, LIMITS));
        AtomicInteger calls = new AtomicInteger();
        store.update(d -> {
            if (calls.incrementAndGet() == 1) { // another writer comes in between this read and its write
                ConfigMap cm = stored();
                cm.setData(Map.of(
                        "deletions",
                        d.with(delete("p-other", NOW.minusSeconds(20)), NOW, LIMITS)
                                .json()));
                client.configMaps()
                        .inNamespace("cartograph-system")
                        .resource(cm)
                        .update();
            }
            return d.with(delete("p-2", NOW.minusSeconds(10)), NOW, LIMITS);
        });

        assertThat(calls).as("read, refused with 409 Conflict, read again").hasValue(2);
        assertThat(store.read().last()).containsOnlyKeys("p-1", "p-other", "p-2");
    }

    @Test
    void aThrottledWriteIsTriedAgainAndARefusalSaysWhichPermissionIsMissing() {
        server.expect()
                .post()
                .withPath(CONFIGMAPS)
                .andReturn(429, status(429, "TooManyRequests", "Too many requests, please try again later."))
                .once();
        int before = server.getRequestCount();
        store.update(d -> d.with(delete("p-1", NOW), NOW, LIMITS));
        assertThat(store.read().last()).containsOnlyKeys("p-1");
        // by hand: get (404), create (429), get (404), create, then the read's get
        assertThat(server.getRequestCount() - before).isEqualTo(5);

        server.expect()
                .put()
                .withPath(CONFIGMAPS + "/cartograph-agent-commands")
                .andReturn(
                        403,
                        status(
                                403,
                                "Forbidden",
                                "configmaps \"cartograph-agent-commands\" is forbidden: User"
                                        + " \"system:serviceaccount:cartograph-system:cartograph-agent\" cannot update"
                                        + " resource \"configmaps\" in API group \"\" in the namespace"
                                        + " \"cartograph-system\""))
                .once();
        assertThatThrownBy(() -> store.update(d -> d.with(delete("p-2", NOW), NOW, LIMITS)))
                .isInstanceOf(CommandOrder.Unavailable.class)
                .hasMessage("not written: the API server answered 403 Forbidden: configmaps"
                        + " \"cartograph-agent-commands\" is forbidden: User"
                        + " \"system:serviceaccount:cartograph-system:cartograph-agent\" cannot update resource"
                        + " \"configmaps\" in API group \"\" in the namespace \"cartograph-system\" (the agent needs"
                        + " get, create and update on configmaps in namespace cartograph-system)");
        assertThat(store.read().last()).containsOnlyKeys("p-1");
    }

    @Test
    void aRecordEditedByHandIsTakenForEverythingForgottenAndWrittenAnewWithTheNextDelete() {
        client.configMaps()
                .inNamespace("cartograph-system")
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("cartograph-agent-commands")
                        .endMetadata()
                        .withData(Map.of("deletions", "{\"placements\": [\"p-1\"]}"))
                        .build())
                .create();
        // by hand: forgotten up to now minus the 10 minute margin, so commands issued up to now are refused
        assertThat(store.read()).isEqualTo(new Deletions(Map.of(), Optional.of(Instant.parse("2026-12-03T09:50:00Z"))));

        store.update(d -> d.with(delete("p-2", NOW), NOW, LIMITS));
        assertThat(stored().getData().get("deletions"))
                .isEqualTo("{\"forgottenUpTo\":\"2026-12-03T09:50:00Z\",\"placements\":{\"p-2\":{\"term\":2,"
                        + "\"epoch\":1,\"issued\":\"2026-12-03T10:00:00Z\"}}}");
    }

    static String status(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message.replace("\"", "\\\"") + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
    }
}
