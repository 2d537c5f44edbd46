package dev.cartograph.broker.hub;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.List;
import java.util.Optional;

/** Which catalog kinds the hub's CRDs serve, and under what plural. Pure. */
final class ServedKinds {
    private ServedKinds() {}

    /** The plural under which one of {@code crds} serves {@code gvk} (its group, kind and version, served); empty if none. */
    static Optional<String> plural(GroupVersionKind gvk, List<CustomResourceDefinition> crds) {
        for (CustomResourceDefinition crd : crds) {
            if (crd.getSpec() == null
                    || !gvk.group().equals(crd.getSpec().getGroup())
                    || !gvk.kind().equals(crd.getSpec().getNames().getKind())) {
                continue;
            }
            for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
                if (v.getName().equals(gvk.version()) && !Boolean.FALSE.equals(v.getServed())) {
                    return Optional.of(crd.getSpec().getNames().getPlural());
                }
            }
        }
        return Optional.empty();
    }
}
