package dev.cartograph.simulator.kube;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.definition.BuiltInKinds;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the workload kinds to watch: the built-in workload kinds, and every served version
 * of every installed CRD whose kind the definitions cover (plural from {@code spec.names.plural}).
 * Bare Pods are not workloads here. Run on every pass, so CRDs installed later are picked up.
 * Stateless and thread-safe.
 */
final class Discovery {
    /** Built-in workload kinds (the API server serves them without CRDs); their plurals are in {@link BuiltInKinds}. */
    static final List<GroupVersionKind> BUILT_IN = List.of(
            new GroupVersionKind("batch", "v1", "Job"),
            new GroupVersionKind("apps", "v1", "Deployment"),
            new GroupVersionKind("apps", "v1", "StatefulSet"),
            new GroupVersionKind("apps", "v1", "ReplicaSet"));

    private Discovery() {}

    static List<ServedKind> servedKinds(KubernetesClient client, Definitions definitions) {
        List<ServedKind> out = new ArrayList<>();
        for (GroupVersionKind kind : BUILT_IN) {
            if (definitions.find(kind).isPresent()) {
                BuiltInKinds.of(kind).ifPresent(k -> out.add(ServedKind.of(kind, k.plural(), k.namespaced())));
            }
        }
        for (CustomResourceDefinition crd :
                client.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            if (crd.getSpec() == null
                    || crd.getSpec().getNames() == null
                    || crd.getSpec().getVersions() == null) {
                continue;
            }
            boolean namespaced = !"Cluster".equals(crd.getSpec().getScope());
            for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
                GroupVersionKind kind = new GroupVersionKind(
                        crd.getSpec().getGroup(),
                        v.getName(),
                        crd.getSpec().getNames().getKind());
                if (!Boolean.FALSE.equals(v.getServed())
                        && definitions.find(kind).isPresent()) {
                    out.add(ServedKind.of(kind, crd.getSpec().getNames().getPlural(), namespaced));
                }
            }
        }
        return out;
    }
}
