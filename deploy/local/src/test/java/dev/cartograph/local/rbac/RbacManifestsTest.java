package dev.cartograph.local.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.local.rbac.RbacManifests.CatalogResource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shipped RBAC (deploy/rbac) is least privilege and covers the catalog: no wildcard anywhere; every catalog
 * kind has exactly the agent's read verbs (get, list, watch: informers and the read before a write), its write
 * verbs (create, patch, delete: KubeApplier), a workload's dependencies only per namespace (get, list, create,
 * update, delete on configmaps, secrets, serviceaccounts, persistentvolumeclaims: DependencySync) and the broker's hub verbs (get, list, watch, patch, and patch on
 * status: HubWatch and KubeHub's edit/editStatus); and nothing else is granted beyond the fixed extras listed
 * here, each from a call read in the code (deploy/rbac/README.md). A catalog kind added without RBAC fails here by
 * name.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RbacManifestsTest {
    static final Set<String> READ = Set.of("get", "list", "watch");
    static final Set<String> WRITE = Set.of("create", "patch", "delete");
    static final Set<String> HUB = Set.of("get", "list", "watch", "patch");
    static final Set<String> LIST_WATCH = Set.of("list", "watch");
    /** DependencySync: read by name, list by the placement's label, create, update (read-modify-write), delete. */
    static final Set<String> DEPENDENCY = Set.of("get", "list", "create", "update", "delete");

    @Test
    void noManifestGrantsAWildcardVerbGroupResourceNameOrUrl() throws Exception {
        List<String> wildcards = new ArrayList<>();
        List<Path> files = RbacManifests.files();
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .contains("agent.yaml", "agent-create-namespaces.yaml", "broker.yaml");
        for (Path file : files) {
            for (JsonNode doc : RbacManifests.documents(file)) {
                for (JsonNode rule : doc.path("rules")) {
                    for (String field :
                            List.of("verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs")) {
                        for (String value : RbacManifests.strings(rule.path(field))) {
                            if (value.contains("*")) {
                                wildcards.add(file.getFileName() + " "
                                        + doc.path("kind").asText() + " "
                                        + doc.path("metadata").path("name").asText() + " " + field + ": " + value);
                            }
                        }
                    }
                }
            }
        }
        assertThat(wildcards).as("wildcards in deploy/rbac").isEmpty();
    }

    @Test
    void everyCatalogKindHasExactlyTheAgentsReadVerbsClusterWideAndNothingElseIsRead() throws Exception {
        Map<String, Set<String>> expected = perCatalogKind("", READ);
        expected.put("/nodes", new TreeSet<>(LIST_WATCH)); // ClusterCache's node informer
        expected.put("apiextensions.k8s.io/customresourcedefinitions", new TreeSet<>(READ)); // informer; Kartas.served
        expected.put("run.ai/kartas", new TreeSet<>(LIST_WATCH)); // KartaWatch, Kartas.overlay
        assertGrants("agent.yaml", "cartograph-agent-read", expected);
    }

    @Test
    void everyCatalogKindHasExactlyTheAgentsWriteVerbsAndNoOtherWrite() throws Exception {
        Map<String, Set<String>> expected = perCatalogKind("", WRITE);
        for (String dependency : List.of("configmaps", "secrets", "serviceaccounts", "persistentvolumeclaims")) {
            expected.put("/" + dependency, new TreeSet<>(DEPENDENCY)); // bound per namespace, like the writes
        }
        assertGrants("agent.yaml", "cartograph-agent-write", expected);
    }

    @Test
    void everyCatalogKindAndItsStatusHaveExactlyTheBrokersHubVerbs() throws Exception {
        Map<String, Set<String>> expected = perCatalogKind("", HUB);
        expected.putAll(perCatalogKind("/status", Set.of("patch"))); // KubeHub.status: editStatus
        expected.put("/namespaces", new TreeSet<>(LIST_WATCH)); // HubWatch's namespace informer
        expected.put("apiextensions.k8s.io/customresourcedefinitions", new TreeSet<>(LIST_WATCH));
        expected.put("run.ai/kartas", new TreeSet<>(LIST_WATCH));
        expected.put("scheduling.k8s.io/priorityclasses", new TreeSet<>(LIST_WATCH)); // PriorityClassWatch
        for (String dependency : List.of("configmaps", "secrets", "serviceaccounts", "persistentvolumeclaims")) {
            expected.put("/" + dependency, new TreeSet<>(LIST_WATCH)); // DependencyWatch
        }
        expected.put("cartograph.dev/clusters", new TreeSet<>(Set.of("get", "create", "update"))); // ClusterObjects
        expected.put(
                "cartograph.dev/queues", new TreeSet<>(Set.of("get", "list", "watch"))); // QueueWatch, QueueObjects
        expected.put("cartograph.dev/queues/status", new TreeSet<>(Set.of("update"))); // QueueObjects: updateStatus
        expected.put("/events", new TreeSet<>(Set.of("create"))); // KubeHub.event
        expected.put("authentication.k8s.io/tokenreviews", new TreeSet<>(Set.of("create"))); // REST authentication
        expected.put("authorization.k8s.io/subjectaccessreviews", new TreeSet<>(Set.of("create")));
        assertGrants("broker.yaml", "cartograph-broker", expected);
    }

    @Test
    void theBrokersLeaseRoleCreatesAnyLeaseButReadsAndPatchesOnlyItsOwn() throws Exception {
        JsonNode role = RbacManifests.object("broker.yaml", "Role", "cartograph-broker-lease");
        assertThat(role.path("metadata").path("namespace").asText()).isEqualTo("cartograph-system");
        assertThat(RbacManifests.grants(role))
                .isEqualTo(Map.of(
                        "coordination.k8s.io/leases", Set.of("create"),
                        "coordination.k8s.io/leases[cartograph-broker]", Set.of("get", "patch")));
    }

    @Test
    void agentWritesAreBoundPerNamespaceWhileReadsAndNamespaceCreationAreClusterWide() throws Exception {
        JsonNode write = RbacManifests.object("agent.yaml", "RoleBinding", "cartograph-agent-write");
        assertThat(write.path("metadata").path("namespace").asText()).isEqualTo("ml");
        assertThat(write.path("roleRef").path("name").asText()).isEqualTo("cartograph-agent-write");
        for (var doc : RbacManifests.documents(RbacManifests.DIR.resolve("agent.yaml"))) {
            if ("ClusterRoleBinding".equals(doc.path("kind").asText())) {
                assertThat(doc.path("roleRef").path("name").asText())
                        .as("a ClusterRoleBinding in agent.yaml")
                        .isEqualTo("cartograph-agent-read");
            }
        }
        JsonNode create = RbacManifests.object(
                "agent-create-namespaces.yaml", "ClusterRole", "cartograph-agent-create-namespaces");
        assertThat(RbacManifests.grants(create)).isEqualTo(Map.of("/namespaces", Set.of("get", "create")));
        assertThat(RbacManifests.object("agent.yaml", "ServiceAccount", "cartograph-agent")
                        .path("metadata")
                        .path("namespace")
                        .asText())
                .isEqualTo("cartograph-system");
    }

    /** Each catalog kind (30 definitions, 28 group/plural pairs by hand: two kinds have two versions each). */
    static Map<String, Set<String>> perCatalogKind(String subresource, Set<String> verbs) {
        List<CatalogResource> resources = RbacManifests.catalogResources();
        assertThat(resources).hasSize(28);
        Map<String, Set<String>> out = new TreeMap<>();
        resources.forEach(r -> out.put(r.key() + subresource, new TreeSet<>(verbs)));
        return out;
    }

    private static void assertGrants(String file, String clusterRole, Map<String, Set<String>> expected)
            throws Exception {
        Map<String, Set<String>> actual = RbacManifests.grants(RbacManifests.object(file, "ClusterRole", clusterRole));
        List<String> problems = new ArrayList<>();
        Map<String, String> kinds = new TreeMap<>();
        RbacManifests.catalogResources().forEach(r -> kinds.put(r.key(), r.kinds()));
        expected.forEach((resource, verbs) -> {
            Set<String> granted = actual.getOrDefault(resource, Set.of());
            if (!granted.equals(verbs)) {
                String kind = kinds.get(resource.replace("/status", ""));
                problems.add(resource + (kind == null ? "" : " (catalog kind " + kind + ")") + " needs exactly " + verbs
                        + " in ClusterRole " + clusterRole + " (" + file + "), has " + granted);
            }
        });
        actual.keySet().stream()
                .filter(r -> !expected.containsKey(r))
                .forEach(r -> problems.add("ClusterRole " + clusterRole + " (" + file + ") grants " + r + " "
                        + actual.get(r) + ", which no code of the component uses"));
        assertThat(problems).as("RBAC in deploy/rbac/" + file).isEmpty();
    }
}
