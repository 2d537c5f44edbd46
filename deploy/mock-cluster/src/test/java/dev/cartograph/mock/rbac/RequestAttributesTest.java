package dev.cartograph.mock.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Expected attributes are kube-apiserver's RequestInfoFactory's for the same requests, written out by hand. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestAttributesTest {

    @Test
    void methodsOnObjectsAndCollectionsBecomeTheApiServersVerbs() {
        assertThat(RequestAttributes.of("GET", "/apis/batch/v1/namespaces/ml/jobs/x"))
                .isEqualTo(new RequestAttributes(
                        "get", true, "batch", "v1", "jobs", "", "ml", "x", "/apis/batch/v1/namespaces/ml/jobs/x"));
        assertThat(RequestAttributes.of("GET", "/apis/batch/v1/namespaces/ml/jobs")
                        .verb())
                .isEqualTo("list");
        assertThat(RequestAttributes.of("POST", "/apis/batch/v1/namespaces/ml/jobs")
                        .verb())
                .isEqualTo("create");
        assertThat(RequestAttributes.of("PUT", "/apis/batch/v1/namespaces/ml/jobs/x")
                        .verb())
                .isEqualTo("update");
        assertThat(RequestAttributes.of("PATCH", "/apis/batch/v1/namespaces/ml/jobs/x")
                        .verb())
                .isEqualTo("patch");
        assertThat(RequestAttributes.of("DELETE", "/apis/batch/v1/namespaces/ml/jobs/x")
                        .verb())
                .isEqualTo("delete");
        assertThat(RequestAttributes.of("DELETE", "/apis/batch/v1/namespaces/ml/jobs")
                        .verb())
                .isEqualTo("deletecollection");
    }

    @Test
    void watchQueriesAndWatchPathsAreWatchesAndAnExactNameSelectorNamesTheObject() {
        RequestAttributes informer = RequestAttributes.of(
                "GET", "/api/v1/pods?allowWatchBookmarks=true&resourceVersion=12&timeoutSeconds=600&watch=true");
        assertThat(informer.verb()).isEqualTo("watch");
        assertThat(informer.namespace()).isEmpty();
        assertThat(informer.resource()).isEqualTo("pods");
        // kubectl's watch=1 too: the server decodes the parameter with Go's strconv.ParseBool
        assertThat(RequestAttributes.of("GET", "/api/v1/namespaces/ml/pods?watch=1")
                        .verb())
                .isEqualTo("watch");
        assertThat(RequestAttributes.of("GET", "/api/v1/namespaces/ml/pods?watch=false")
                        .verb())
                .isEqualTo("list");
        RequestAttributes legacy = RequestAttributes.of("GET", "/api/v1/watch/namespaces/ml/pods");
        assertThat(legacy.verb()).isEqualTo("watch");
        assertThat(legacy.namespace()).isEqualTo("ml");
        RequestAttributes named = RequestAttributes.of(
                "GET",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldSelector=metadata.name%3Dkartas.run.ai");
        assertThat(named.verb()).isEqualTo("list");
        assertThat(named.name()).isEqualTo("kartas.run.ai");
        // a name with watch=true stays a get, as in kube-apiserver
        assertThat(RequestAttributes.of("GET", "/api/v1/namespaces/ml/pods/p?watch=true")
                        .verb())
                .isEqualTo("get");
    }

    @Test
    void subresourcesNamespaceObjectsAndDiscoveryPathsParseAsTheApiServerParsesThem() {
        RequestAttributes status =
                RequestAttributes.of("PATCH", "/apis/kubeflow.org/v1/namespaces/ml/pytorchjobs/bert/status");
        assertThat(status.combinedResource()).isEqualTo("pytorchjobs/status");
        assertThat(status.name()).isEqualTo("bert");
        RequestAttributes namespace = RequestAttributes.of("GET", "/api/v1/namespaces/ml");
        assertThat(namespace.resource()).isEqualTo("namespaces");
        assertThat(namespace.name()).isEqualTo("ml");
        assertThat(namespace.namespace()).isEqualTo("ml");
        RequestAttributes finalize = RequestAttributes.of("PUT", "/api/v1/namespaces/ml/finalize");
        assertThat(finalize.combinedResource()).isEqualTo("namespaces/finalize");
        RequestAttributes create = RequestAttributes.of("POST", "/api/v1/namespaces");
        assertThat(create.namespace()).isEmpty();
        for (String discovery :
                new String[] {"/api", "/api/v1", "/apis", "/apis/batch", "/apis/batch/v1", "/version"}) {
            RequestAttributes a = RequestAttributes.of("GET", discovery);
            assertThat(a.resourceRequest()).as(discovery).isFalse();
            assertThat(a.path()).isEqualTo(discovery);
            assertThat(a.verb()).isEqualTo("get");
        }
    }
}
