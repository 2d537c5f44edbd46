package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.WorkloadKey;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The ConfigMaps, Secrets, ServiceAccount and claims of an apply on a member (a fabric8 mock API server, CRUD mode),
 * through the agent's command handler: written before the workload, kept in step with the hub at the same epoch,
 * never taken from someone else, released when no longer listed or when the placement is deleted (a claim kept),
 * and never logged with their data.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class DependenciesIT {
    static final String USED_BY = "used-by.cartograph.dev/";

    KubernetesMockServer server;
    KubernetesClient client;
    ClusterCache cache;
    CommandHandler handler;

    @BeforeEach
    void agent() {
        Definitions catalog = Catalog.load().definitions();
        MemberCluster member = new MemberCluster(client);
        cache = member.cache(catalog, change -> {});
        cache.start();
        ApplyPolicy policy = new ApplyPolicy(catalog, Set.of(), ApplyPolicy.SYSTEM_NAMESPACES);
        handler = new CommandHandler(
                "member", cache, member.applier(cache, true), () -> policy, new PendingChanges(), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        cache.close();
    }

    static JsonNode yaml(String text) {
        try {
            return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                    .get(0);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static JsonNode job(String name) {
        return yaml("apiVersion: batch/v1\nkind: Job\nmetadata: {name: " + name + ", namespace: ml}\n"
                + "spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}\n");
    }

    static JsonNode configMap(String name, String value) {
        return yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + ", namespace: ml}\n"
                + "data: {setting: \"" + value + "\"}\n");
    }

    /** base64 of the token: "czNjcjN0" is "s3cr3t", "bjN3LXMzY3IzdA==" is "n3w-s3cr3t". */
    static JsonNode secret(String data) {
        return yaml("apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: ml}\ntype: Opaque\n"
                + "data: {token: " + data + "}\n");
    }

    static JsonNode claim() {
        return yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: ml}\n"
                + "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}\n");
    }

    static JsonNode serviceAccount() {
        return yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: trainer, namespace: ml}\n");
    }

    CommandResult apply(String placement, long epoch, String job, JsonNode... dependencies) {
        return handler.apply(new Command.Apply(placement, epoch, Instant.now(), job(job), List.of(dependencies)));
    }

    CommandResult delete(String placement, long epoch, String job) {
        return handler.apply(new Command.Delete(
                placement, epoch, Instant.now(), new WorkloadKey("member", "ml", "batch", "Job", job)));
    }

    Map<String, String> labels(HasMetadata o) {
        return o.getMetadata().getLabels() == null ? Map.of() : o.getMetadata().getLabels();
    }

    List<String> creates() throws InterruptedException {
        List<String> paths = new ArrayList<>();
        for (RecordedRequest r; (r = server.takeRequest(50, TimeUnit.MILLISECONDS)) != null; ) {
            if (r.getMethod().equals("POST")) {
                paths.add(r.getPath());
            }
        }
        return paths;
    }

    @Test
    void everyDependencyIsCreatedBeforeTheWorkloadMarkedAsCartographsAndLabelledForThePlacement() throws Exception {
        CommandResult r =
                apply("p-1", 1, "train", serviceAccount(), configMap("settings", "1"), secret("czNjcjN0"), claim());
        assertThat(r.outcome()).as(r.reason()).isEqualTo(CommandResult.Outcome.APPLIED);
        // the namespace (create-namespaces on), the four dependencies in the listed order, then the Job
        assertThat(creates())
                .containsSubsequence(
                        "/api/v1/namespaces",
                        "/api/v1/namespaces/ml/serviceaccounts",
                        "/api/v1/namespaces/ml/configmaps",
                        "/api/v1/namespaces/ml/secrets",
                        "/api/v1/namespaces/ml/persistentvolumeclaims",
                        "/apis/batch/v1/namespaces/ml/jobs")
                .filteredOn(p -> p.startsWith("/apis/batch/v1/namespaces/ml/jobs"))
                .hasSize(1);
        Map<String, String> marks = Map.of(
                "app.kubernetes.io/managed-by",
                "cartograph-agent",
                "cartograph.dev/dependency",
                "true",
                USED_BY + "p-1",
                "true");
        assertThat(labels(client.serviceAccounts()
                        .inNamespace("ml")
                        .withName("trainer")
                        .get()))
                .containsAllEntriesOf(marks);
        assertThat(labels(client.configMaps()
                        .inNamespace("ml")
                        .withName("settings")
                        .get()))
                .containsAllEntriesOf(marks);
        assertThat(labels(client.secrets().inNamespace("ml").withName("creds").get()))
                .containsAllEntriesOf(marks);
        assertThat(labels(client.persistentVolumeClaims()
                        .inNamespace("ml")
                        .withName("data")
                        .get()))
                .containsAllEntriesOf(marks);
        assertThat(client.secrets().inNamespace("ml").withName("creds").get().getData())
                .containsEntry("token", "czNjcjN0");
    }

    @Test
    void aSecretChangedOnTheHubIsUpdatedByTheApplySentAgainAtTheSameEpochAndAStaleApplyTouchesNothing() {
        assertThat(apply("p-1", 2, "train", secret("czNjcjN0")).outcome()).isEqualTo(CommandResult.Outcome.APPLIED);
        CommandResult again = apply("p-1", 2, "train", secret("bjN3LXMzY3IzdA=="));
        assertThat(again.outcome()).as(again.reason()).isEqualTo(CommandResult.Outcome.APPLIED);
        assertThat(client.secrets().inNamespace("ml").withName("creds").get().getData())
                .isEqualTo(Map.of("token", "bjN3LXMzY3IzdA=="));
        CommandResult stale = apply("p-1", 1, "train", secret("b2xk")); // "old"
        assertThat(stale.outcome()).isEqualTo(CommandResult.Outcome.STALE);
        assertThat(client.secrets().inNamespace("ml").withName("creds").get().getData())
                .isEqualTo(Map.of("token", "bjN3LXMzY3IzdA=="));
    }

    @Test
    void aConfigMapNotCartographsFailsTheApplyNamingItAndTheApplyLeavesNothingBehind() {
        client.configMaps()
                .inNamespace("ml")
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("settings")
                        .withNamespace("ml")
                        .endMetadata()
                        .addToData("setting", "theirs")
                        .build())
                .create();
        CommandResult r = apply("p-1", 1, "train", secret("czNjcjN0"), configMap("settings", "ours"));
        assertThat(r.outcome()).isEqualTo(CommandResult.Outcome.FAILED);
        assertThat(r.reason())
                .isEqualTo("ConfigMap ml/settings already exists on this cluster and was not created by Cartograph;"
                        + " it is left alone");
        assertThat(client.secrets().inNamespace("ml").withName("creds").get()).isNull(); // created, then released
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace("ml")
                        .withName("train")
                        .get())
                .isNull();
        var theirs = client.configMaps().inNamespace("ml").withName("settings").get();
        assertThat(theirs.getData()).isEqualTo(Map.of("setting", "theirs"));
        assertThat(labels(theirs)).isEmpty();
    }

    @Test
    void aRejectedApplyWritesNoDependency() {
        JsonNode elsewhere = yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: other}\n");
        CommandResult r = apply("p-1", 1, "train", secret("czNjcjN0"), elsewhere);
        assertThat(r.outcome()).isEqualTo(CommandResult.Outcome.REJECTED);
        assertThat(r.reason()).startsWith("dependencies[1]: ConfigMap other/settings is not in the workload's");
        assertThat(client.secrets().inAnyNamespace().list().getItems()).isEmpty();
        assertThat(client.configMaps().inAnyNamespace().list().getItems()).isEmpty();
    }

    @Test
    void deleteReleasesDeletingWhatNoPlacementUsesKeepingTheClaimAndAConfigMapAnotherPlacementUses() {
        assertThat(apply("p-1", 1, "train", configMap("shared", "1"), secret("czNjcjN0"), claim())
                        .outcome())
                .isEqualTo(CommandResult.Outcome.APPLIED);
        assertThat(apply("p-2", 1, "eval", configMap("shared", "1")).outcome())
                .isEqualTo(CommandResult.Outcome.APPLIED);
        assertThat(labels(
                        client.configMaps().inNamespace("ml").withName("shared").get()))
                .containsKeys(USED_BY + "p-1", USED_BY + "p-2");

        CommandResult r = delete("p-1", 1, "train");
        assertThat(r.outcome()).as(r.reason()).isEqualTo(CommandResult.Outcome.DELETED);
        assertThat(client.secrets().inNamespace("ml").withName("creds").get()).isNull();
        var shared = client.configMaps().inNamespace("ml").withName("shared").get();
        assertThat(labels(shared)).containsKey(USED_BY + "p-2").doesNotContainKey(USED_BY + "p-1");
        var kept = client.persistentVolumeClaims()
                .inNamespace("ml")
                .withName("data")
                .get();
        assertThat(kept).isNotNull();
        assertThat(labels(kept))
                .containsEntry("cartograph.dev/dependency", "true")
                .doesNotContainKey(USED_BY + "p-1");

        // a delete sent again (nothing to delete) releases nothing more; the last user's delete removes the ConfigMap
        assertThat(delete("p-1", 1, "train").outcome()).isEqualTo(CommandResult.Outcome.DELETED);
        assertThat(delete("p-2", 1, "eval").outcome()).isEqualTo(CommandResult.Outcome.DELETED);
        assertThat(client.configMaps().inNamespace("ml").withName("shared").get())
                .isNull();
        assertThat(client.persistentVolumeClaims()
                        .inNamespace("ml")
                        .withName("data")
                        .get())
                .isNotNull();
    }

    @Test
    void aDeleteWhoseReleaseFailsForNowIsRetriedAndOneTheServerRefusesIsDeletedWithTheReason() throws Exception {
        assertThat(apply("p-1", 1, "train", configMap("settings", "1")).outcome())
                .isEqualTo(CommandResult.Outcome.APPLIED);
        String list = null; // the placement's labelled accounts, as the apply listed them after the Job
        for (RecordedRequest r; (r = server.takeRequest(50, TimeUnit.MILLISECONDS)) != null; ) {
            if (r.getMethod().equals("GET") && r.getPath().startsWith("/api/v1/namespaces/ml/serviceaccounts?")) {
                list = r.getPath();
            }
        }
        assertThat(list).contains("labelSelector=");
        server.expect().get().withPath(list).andReturn(503, "overloaded").times(4); // the agent tries 4 times
        server.expect()
                .get()
                .withPath(list)
                .andReturn(
                        403,
                        new StatusBuilder()
                                .withCode(403)
                                .withReason("Forbidden")
                                .withMessage("serviceaccounts is forbidden")
                                .build())
                .always();
        // a client that does not retry a 503 itself: the agent's own retry is what is tested
        KubernetesClient once = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        ApplyPolicy policy = new ApplyPolicy(Catalog.load().definitions(), Set.of(), ApplyPolicy.SYSTEM_NAMESPACES);
        handler = new CommandHandler(
                "member",
                cache,
                new MemberCluster(once).applier(cache, true),
                () -> policy,
                new PendingChanges(),
                Clock.systemUTC());
        CommandResult first = delete("p-1", 1, "train");
        assertThat(first.outcome()).as(first.reason()).isEqualTo(CommandResult.Outcome.RETRY);
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace("ml")
                        .withName("train")
                        .get())
                .isNull();
        CommandResult again = delete("p-1", 1, "train");
        assertThat(again.outcome()).isEqualTo(CommandResult.Outcome.DELETED);
        assertThat(again.reason())
                .isEqualTo("nothing to delete; dependencies in ml not read: the API server refused it: 403 Forbidden:"
                        + " serviceaccounts is forbidden");
        assertThat(client.configMaps().inNamespace("ml").withName("settings").get())
                .isNotNull(); // for a person
    }

    @Test
    void aDependencyTheNextApplyNoLongerListsIsReleased() {
        assertThat(apply("p-1", 1, "train", configMap("a", "1"), configMap("b", "1"))
                        .outcome())
                .isEqualTo(CommandResult.Outcome.APPLIED);
        CommandResult r = apply("p-1", 2, "train", configMap("a", "2"));
        assertThat(r.outcome()).as(r.reason()).isEqualTo(CommandResult.Outcome.APPLIED);
        assertThat(client.configMaps().inNamespace("ml").withName("b").get()).isNull();
        assertThat(client.configMaps().inNamespace("ml").withName("a").get().getData())
                .isEqualTo(Map.of("setting", "2"));
    }

    @Test
    void aSecretsDataAppearsInNoLogLineOrReason() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        root.addAppender(lines);
        List<String> reasons = new ArrayList<>();
        try {
            reasons.add(apply("p-1", 1, "train", secret("czNjcjN0")).reason());
            reasons.add(apply("p-1", 1, "train", secret("bjN3LXMzY3IzdA==")).reason());
            client.secrets().inNamespace("ml").withName("creds").edit(s -> {
                s.getMetadata().setLabels(Map.of()); // no longer Cartograph's: the next apply fails on it
                return s;
            });
            reasons.add(apply("p-2", 1, "eval", secret("bjN3LXMzY3IzdA==")).reason());
            reasons.add(delete("p-1", 1, "train").reason());
        } finally {
            root.detachAppender(lines);
        }
        List<String> logged = new ArrayList<>(reasons);
        lines.list.forEach(e -> {
            logged.add(e.getFormattedMessage());
            logged.add(String.valueOf(e.getMDCPropertyMap()));
            if (e.getThrowableProxy() != null) {
                logged.add(e.getThrowableProxy().getMessage());
            }
        });
        assertThat(logged).anyMatch(l -> l.contains("Secret ml/creds")); // names are there
        assertThat(logged).noneMatch(l -> l.contains("czNjcjN0") || l.contains("s3cr3t"));
        assertThat(logged).noneMatch(l -> l.contains("bjN3LXMzY3IzdA==") || l.contains("n3w-s3cr3t"));
    }
}
