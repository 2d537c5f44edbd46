package dev.cartograph.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.testing.Eventually;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 33, finding 3: a catalog kind the member serves, whose discovery or first list the API server does not answer
 * when the agent starts (429, 5xx), must be watched once it answers — not left unwatched until some CRD changes,
 * while its copies vanish from the summaries and the broker places running gangs again. Against the fabric8 CRUD mock
 * with the failure put in front ({@link Unanswering}); the PyTorchJob CRD and one PyTorchJob exist before the start.
 */
@Timeout(60)
class UnansweredDiscoveryIT {
    static final GroupVersionKind PYTORCH = new GroupVersionKind("kubeflow.org", "v1", "PyTorchJob");
    static final String DISCOVERY = "/apis/kubeflow.org/v1";
    static final String LIST = "/apis/kubeflow.org/v1/pytorchjobs";

    final Unanswering api = new Unanswering();
    final List<ClusterCache.Change> changes = new CopyOnWriteArrayList<>();
    KubernetesMockServer server;
    KubernetesClient client;
    ClusterCache cache;

    @BeforeEach
    void member() throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
        server.init();
        // no retries of fabric8's own: the agent's are what is tested
        client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(server.createClient().getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName("pytorchjobs.kubeflow.org")
                        .endMetadata()
                        .withNewSpec()
                        .withGroup("kubeflow.org")
                        .withScope("Namespaced")
                        .withVersions(new CustomResourceDefinitionVersionBuilder()
                                .withName("v1")
                                .withServed(true)
                                .withStorage(true)
                                .build())
                        .withNewNames()
                        .withKind("PyTorchJob")
                        .withPlural("pytorchjobs")
                        .withSingular("pytorchjob")
                        .endNames()
                        .endSpec()
                        .build())
                .create();
        client.genericKubernetesResources(ClusterCache.context(PYTORCH, "pytorchjobs"))
                .inNamespace("ml")
                .resource(Documents.json()
                        .treeToValue(
                                Documents.read(new ByteArrayInputStream(
                                                "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: train, namespace: ml}\nspec: {}\n"
                                                        .getBytes(StandardCharsets.UTF_8)))
                                        .get(0),
                                GenericKubernetesResource.class))
                .create();
    }

    @AfterEach
    void stop() {
        if (cache != null) {
            cache.close();
        }
        client.close();
        server.destroy();
    }

    boolean watchingTrain() {
        return cache.watches(PYTORCH) && cache.workload(PYTORCH, "ml", "train").isPresent();
    }

    /** Starts the cache while {@code path} fails; returns what it reported unwatched then, and lets the path answer. */
    Map<GroupVersionKind, String> startWhileFailing(String path, int code) throws Exception {
        api.fail(path, code);
        cache = new ClusterCache(client, Catalog.load().definitions(), changes::add);
        cache.start();
        Eventually.until(Duration.ofSeconds(10), () -> api.failures() > 0);
        Thread.sleep(1500); // the start and the CRD informer's first list have both met the failure
        assertThat(cache.watches(PYTORCH)).isFalse();
        Map<GroupVersionKind, String> unwatched = cache.unwatched();
        api.answer(path);
        return unwatched;
    }

    @Test
    void aKindWhoseDiscoveryIsThrottledAtStartIsWatchedOnceTheApiServerAnswers() throws Exception {
        Map<GroupVersionKind, String> unwatched = startWhileFailing(DISCOVERY, 429);

        // every catalog kind of kubeflow.org/v1 could not be asked about: reported, with the API server's answer
        assertThat(unwatched.keySet())
                .extracting(GroupVersionKind::kind)
                .containsExactlyInAnyOrder("PyTorchJob", "TFJob", "JAXJob", "XGBoostJob", "PaddleJob");
        assertThat(unwatched.get(PYTORCH))
                .isEqualTo("discovery of kubeflow.org/v1: the API server answered 429 TooManyRequests: injected by the"
                        + " test");
        assertThat(changes).contains(new ClusterCache.Change.Capacity()); // so the next summary says it
        Eventually.until(
                Duration.ofSeconds(20),
                this::watchingTrain,
                () -> "PyTorchJob not watched 20 s after its discovery answered again; watched: " + cache.synced());
        // the others are not served (no CRD): no longer reported, and not watched
        Eventually.until(Duration.ofSeconds(20), () -> cache.unwatched().isEmpty(), () -> "" + cache.unwatched());
        assertThat(cache.watches(new GroupVersionKind("kubeflow.org", "v1", "TFJob")))
                .isFalse();
    }

    @Test
    void aKindWhoseFirstListFailsAtStartIsWatchedOnceItCanBeListed() throws Exception {
        Map<GroupVersionKind, String> unwatched = startWhileFailing(LIST, 500);

        assertThat(unwatched)
                .containsExactly(Map.entry(
                        PYTORCH,
                        "its informer cannot list pytorchjobs: the API server answered 500 InternalError: injected"
                                + " by the test"));
        Eventually.until(
                Duration.ofSeconds(20),
                this::watchingTrain,
                () -> "PyTorchJob not watched 20 s after its list answered again; watched: " + cache.synced());
        assertThat(cache.unwatched()).isEmpty();
        assertThat(cache.plural(PYTORCH)).contains("pytorchjobs");
    }

    @Test
    void aGroupVersionTheApiServerDoesNotServeIsNotServedNotUnwatched() throws Exception {
        cache = new ClusterCache(client, Catalog.load().definitions(), changes::add);
        cache.start();
        // no CRD for jobset.x-k8s.io: its discovery answers 404; nothing to watch, nothing reported
        assertThat(cache.watches(new GroupVersionKind("jobset.x-k8s.io", "v1alpha2", "JobSet")))
                .isFalse();
        assertThat(cache.unwatched()).isEmpty();
        assertThat(cache.watches(PYTORCH)).isTrue();
    }
}
