package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.mock.rbac.Denial;
import dev.cartograph.mock.rbac.Rbac;
import dev.cartograph.mock.rbac.RbacPolicy;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A mock API server enforcing RBAC answers a fabric8 client with a service account token as kube-apiserver
 * would: allowed requests go through, a denied one is 403 with the API server's Status (over plain HTTP, for an
 * HTTP watch and for a WebSocket watch), discovery is open, and a client without a known token is the server's
 * own and may do anything.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RbacEnforcementIT {
    static final String USER = "system:serviceaccount:cartograph-system:reader";
    static MockApiServer server;
    static KubernetesClient reader;

    @BeforeAll
    static void start() {
        RbacPolicy policy = RbacPolicy.fromYaml(List.of("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: configmaps}
                rules:
                - {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch, create]}
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: configmaps, namespace: ml}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: configmaps}
                subjects: [{kind: ServiceAccount, name: reader, namespace: cartograph-system}]
                """));
        server = MockApiServer.start(
                MockApiServer.Options.defaults().withRbac(Rbac.enforcing(policy, Map.of("reader-token", USER))));
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url())
                .withOauthToken("reader-token")
                .withHttp2Disable(true)
                .withRequestRetryBackoffLimit(0)
                .build();
        reader = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterAll
    static void stop() {
        reader.close();
        server.close();
    }

    static ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("k", "v")
                .build();
    }

    @Test
    void allowedRequestsAndDiscoveryGoThroughAndTheServersOwnClientIsNotHeldToRbac() {
        reader.configMaps().inNamespace("ml").resource(configMap("a")).create();
        assertThat(reader.configMaps().inNamespace("ml").withName("a").get()).isNotNull();
        assertThat(reader.getApiResources("v1").getResources()).isNotEmpty();
        server.client()
                .configMaps()
                .inNamespace("elsewhere")
                .resource(configMap("b"))
                .create();
        assertThat(server.client().pods().inAnyNamespace().list().getItems()).isEmpty();
    }

    @Test
    void aDeniedWriteIsAForbiddenStatusNamingTheUserVerbResourceAndNamespace() {
        assertThatThrownBy(() -> reader.configMaps()
                        .inNamespace("research")
                        .resource(configMap("c"))
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo(
                                    "configmaps is forbidden: User \"" + USER
                                            + "\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"research\"");
                    assertThat(e.getStatus().getDetails().getKind()).isEqualTo("configmaps");
                });
        assertThat(server.client()
                        .configMaps()
                        .inNamespace("research")
                        .withName("c")
                        .get())
                .isNull();
        assertThat(server.rbacDenials())
                .extracting(Denial::message)
                .contains("configmaps is forbidden: User \"" + USER
                        + "\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"research\"");
    }

    @Test
    void deniedWatchesOverWebSocketAndHttpAreRefusedBeforeTheyStart() throws Exception {
        assertThatThrownBy(() -> reader.pods().inAnyNamespace().watch(new Watcher<Pod>() {
                    @Override
                    public void eventReceived(Action action, Pod resource) {}

                    @Override
                    public void onClose(WatcherException cause) {}
                }))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(403));
        HttpResponse<String> http = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/nodes?watch=true"))
                                .header("Authorization", "Bearer reader-token")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(http.statusCode()).isEqualTo(403);
        assertThat(http.body())
                .isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"nodes is forbidden: User \\\"" + USER
                        + "\\\" cannot watch resource \\\"nodes\\\" in API group \\\"\\\" at the cluster scope\","
                        + "\"reason\":\"Forbidden\",\"details\":{\"kind\":\"nodes\"},\"code\":403}");
        assertThat(server.rbacDenials())
                .extracting(d -> d.request().verb() + " " + d.request().resource() + " "
                        + d.request().namespace())
                .contains("watch pods ", "watch nodes ");
    }
}
