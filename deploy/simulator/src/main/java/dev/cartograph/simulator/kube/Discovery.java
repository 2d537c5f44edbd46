package dev.cartograph.simulator.kube;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.definition.GroupVersionKind;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds the workload kinds to watch: the built-in kinds of a fixed table, and every served version
 * of every installed CRD whose kind the definitions cover (plural from {@code spec.names.plural}).
 * Bare Pods are not workloads here. Run on every pass, so CRDs installed later are picked up.
 * Stateless and thread-safe.
 */
final class Discovery {
    /** Built-in workload kinds and their plurals (the API server serves them without CRDs). */
    static final Map<GroupVersionKind, String> BUILT_IN = Map.of(
            new GroupVersionKind("batch", "v1", "Job"), "jobs",
            new GroupVersionKind("apps", "v1", "Deployment"), "deployments",
            new GroupVersionKind("apps", "v1", "StatefulSet"), "statefulsets",
            new GroupVersionKind("apps", "v1", "ReplicaSet"), "replicasets");

    private Discovery() {
    }

    static List<ServedKind> servedKinds(KubernetesClient client, Definitions definitions) {
        List<ServedKind> out = new ArrayList<>();
        BUILT_IN.forEach((kind, plural) -> {
            if (definitions.find(kind).isPresent()) {
                out.add(ServedKind.of(kind, plural, true));
            }
        });
        for (CustomResourceDefinition crd : client.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            if (crd.getSpec() == null || crd.getSpec().getNames() == null || crd.getSpec().getVersions() == null) {
                continue;
            }
            boolean namespaced = !"Cluster".equals(crd.getSpec().getScope());
            for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
                GroupVersionKind kind = new GroupVersionKind(crd.getSpec().getGroup(), v.getName(), crd.getSpec().getNames().getKind());
                if (!Boolean.FALSE.equals(v.getServed()) && definitions.find(kind).isPresent()) {
                    out.add(ServedKind.of(kind, crd.getSpec().getNames().getPlural(), namespaced));
                }
            }
        }
        return out;
    }
}
