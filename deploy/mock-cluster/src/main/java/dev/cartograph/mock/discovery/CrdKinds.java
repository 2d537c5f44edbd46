package dev.cartograph.mock.discovery;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Reads the resource types a CustomResourceDefinition serves: one {@link ApiKind} per served version. Pure; thread-safe. */
public final class CrdKinds {
    private CrdKinds() {}

    /** The served versions of {@code crd}; empty when the CRD lacks group, names or versions. */
    public static List<ApiKind> of(CustomResourceDefinition crd) {
        if (crd.getSpec() == null
                || crd.getSpec().getNames() == null
                || crd.getSpec().getVersions() == null
                || crd.getSpec().getGroup() == null) {
            return List.of();
        }
        CustomResourceDefinitionNames names = crd.getSpec().getNames();
        if (names.getPlural() == null || names.getKind() == null) {
            return List.of();
        }
        String singular = Optional.ofNullable(names.getSingular())
                .filter(s -> !s.isBlank())
                .orElse(names.getKind().toLowerCase(Locale.ROOT));
        boolean namespaced = !"Cluster".equals(crd.getSpec().getScope());
        return crd.getSpec().getVersions().stream()
                .filter(v -> !Boolean.FALSE.equals(v.getServed()))
                .map(v -> new ApiKind(
                        crd.getSpec().getGroup(),
                        v.getName(),
                        names.getPlural(),
                        singular,
                        names.getKind(),
                        namespaced,
                        ApiKind.ALL_VERBS,
                        nonNull(names.getShortNames()),
                        nonNull(names.getCategories()),
                        hasStatus(v),
                        hasScale(v)))
                .toList();
    }

    private static boolean hasStatus(CustomResourceDefinitionVersion version) {
        return version.getSubresources() != null && version.getSubresources().getStatus() != null;
    }

    private static boolean hasScale(CustomResourceDefinitionVersion version) {
        return version.getSubresources() != null && version.getSubresources().getScale() != null;
    }

    private static List<String> nonNull(List<String> list) {
        return list == null ? List.of() : list;
    }
}
