package dev.cartograph.mock.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.kube.crd.VersionPriority;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DiscoveryTest {

    /** A two-version CRD with short names and categories, stored at v1beta1, cluster-scoped like a few real ones. */
    private static final CustomResourceDefinition WIDGETS = new CustomResourceDefinitionBuilder()
            .withNewMetadata()
            .withName("widgets.example.com")
            .endMetadata()
            .withNewSpec()
            .withGroup("example.com")
            .withScope("Cluster")
            .withNewNames()
            .withKind("Widget")
            .withPlural("widgets")
            .withSingular("widget")
            .withShortNames("wd")
            .withCategories("all", "gadgets")
            .endNames()
            .addNewVersion()
            .withName("v1alpha1")
            .withServed(true)
            .withStorage(false)
            .endVersion()
            .addNewVersion()
            .withName("v1beta1")
            .withServed(true)
            .withStorage(true)
            .withNewSubresources()
            .withNewStatus()
            .endStatus()
            .endSubresources()
            .endVersion()
            .addNewVersion()
            .withName("v1alpha0")
            .withServed(false)
            .withStorage(false)
            .endVersion()
            .endSpec()
            .build();

    private final Discovery builtIns = Discovery.of(BuiltInKinds.all(), List.of());
    private final Discovery withWidgets = Discovery.of(BuiltInKinds.all(), List.of(WIDGETS));

    @Test
    void coreVersionsListOnlyV1WithTheServerAddress() {
        var versions = builtIns.coreVersions("127.0.0.1:8080");
        assertThat(versions.getVersions()).containsExactly("v1");
        assertThat(versions.getServerAddressByClientCIDRs().get(0).getServerAddress())
                .isEqualTo("127.0.0.1:8080");
    }

    @Test
    void coreResourcesCarryScopeShortNamesAndVerbs() {
        APIResourceList core = builtIns.resources("", "v1").orElseThrow();
        assertThat(core.getGroupVersion()).isEqualTo("v1");
        APIResource pods = named(core, "pods");
        assertThat(pods.getNamespaced()).isTrue();
        assertThat(pods.getKind()).isEqualTo("Pod");
        assertThat(pods.getSingularName()).isEqualTo("pod");
        assertThat(pods.getShortNames()).containsExactly("po");
        assertThat(pods.getCategories()).containsExactly("all");
        assertThat(pods.getVerbs())
                .containsExactlyInAnyOrder(
                        "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
        assertThat(named(core, "nodes").getNamespaced()).isFalse();
        assertThat(named(core, "nodes").getShortNames()).containsExactly("no");
        assertThat(named(core, "namespaces").getShortNames()).containsExactly("ns");
        assertThat(named(core, "namespaces").getNamespaced()).isFalse();
        assertThat(named(core, "events").getNamespaced()).isTrue();
        assertThat(named(core, "pods/status").getVerbs()).containsExactly("get", "patch", "update");
        assertThat(core.getResources()).extracting(APIResource::getName).contains("services", "configmaps", "secrets");
    }

    @Test
    void builtInGroupsAreListedWithTheirShortNames() {
        assertThat(builtIns.groups().getGroups())
                .extracting(APIGroup::getName)
                .containsExactly(
                        "apps",
                        "batch",
                        "coordination.k8s.io",
                        "scheduling.k8s.io",
                        "policy",
                        "apiextensions.k8s.io",
                        "events.k8s.io");
        assertThat(named(builtIns.resources("apps", "v1").orElseThrow(), "deployments")
                        .getShortNames())
                .containsExactly("deploy");
        assertThat(named(builtIns.resources("apps", "v1").orElseThrow(), "statefulsets")
                        .getShortNames())
                .containsExactly("sts");
        assertThat(named(builtIns.resources("apps", "v1").orElseThrow(), "replicasets")
                        .getShortNames())
                .containsExactly("rs");
        APIResource deploymentScale = named(builtIns.resources("apps", "v1").orElseThrow(), "deployments/scale");
        assertThat(deploymentScale.getGroup() + "/" + deploymentScale.getVersion() + " " + deploymentScale.getKind())
                .isEqualTo("autoscaling/v1 Scale");
        assertThat(named(builtIns.resources("batch", "v1").orElseThrow(), "cronjobs")
                        .getShortNames())
                .containsExactly("cj");
        APIResource crds =
                named(builtIns.resources("apiextensions.k8s.io", "v1").orElseThrow(), "customresourcedefinitions");
        assertThat(crds.getShortNames()).containsExactly("crd", "crds");
        assertThat(crds.getNamespaced()).isFalse();
        assertThat(named(builtIns.resources("scheduling.k8s.io", "v1").orElseThrow(), "priorityclasses")
                        .getNamespaced())
                .isFalse();
        assertThat(named(builtIns.resources("coordination.k8s.io", "v1").orElseThrow(), "leases")
                        .getNamespaced())
                .isTrue();
        assertThat(named(builtIns.resources("events.k8s.io", "v1").orElseThrow(), "events")
                        .getKind())
                .isEqualTo("Event");
    }

    @Test
    void crdGroupListsServedVersionsHighestFirstAndPrefersTheHighest() {
        APIGroup example = withWidgets.groups().getGroups().stream()
                .filter(g -> g.getName().equals("example.com"))
                .findFirst()
                .orElseThrow();
        assertThat(example.getVersions())
                .extracting(v -> v.getGroupVersion())
                .containsExactly("example.com/v1beta1", "example.com/v1alpha1");
        assertThat(example.getPreferredVersion().getVersion()).isEqualTo("v1beta1");
        assertThat(withWidgets.resources("example.com", "v1alpha0")).isEmpty();
    }

    @Test
    void crdResourcesCarryScopeShortNamesCategoriesAndStatusWhereDeclared() {
        APIResourceList beta = withWidgets.resources("example.com", "v1beta1").orElseThrow();
        assertThat(beta.getGroupVersion()).isEqualTo("example.com/v1beta1");
        APIResource widgets = named(beta, "widgets");
        assertThat(widgets.getNamespaced()).isFalse();
        assertThat(widgets.getShortNames()).containsExactly("wd");
        assertThat(widgets.getCategories()).containsExactly("all", "gadgets");
        assertThat(widgets.getSingularName()).isEqualTo("widget");
        assertThat(beta.getResources()).extracting(APIResource::getName).containsExactly("widgets", "widgets/status");
        assertThat(withWidgets
                        .resources("example.com", "v1alpha1")
                        .orElseThrow()
                        .getResources())
                .extracting(APIResource::getName)
                .containsExactly("widgets");
    }

    @Test
    void unknownGroupVersionServesNothing() {
        assertThat(builtIns.resources("kubeflow.org", "v1")).isEqualTo(Optional.empty());
    }

    @Test
    void versionPriorityPutsGaThenBetaThenAlpha() {
        assertThat(List.of("v1alpha1", "v1", "v2beta1", "v1beta2", "v2", "foo", "v1beta1", "v1alpha2").stream()
                        .sorted(VersionPriority.HIGHEST_FIRST)
                        .toList())
                .containsExactly("v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha2", "v1alpha1", "foo");
    }

    private static APIResource named(APIResourceList list, String name) {
        return list.getResources().stream()
                .filter(r -> r.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in " + list.getGroupVersion()));
    }
}
