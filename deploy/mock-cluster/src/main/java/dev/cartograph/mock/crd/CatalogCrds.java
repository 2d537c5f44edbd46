package dev.cartograph.mock.crd;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.mock.discovery.BuiltInKinds;
import dev.cartograph.mock.discovery.VersionPriority;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CustomResourceDefinitions (apiextensions v1) for the custom kinds a set of workload definitions
 * interprets, so a mock cluster can store them: one CRD per group and kind, every defined version
 * served, the newest stored, a schema that keeps unknown fields, and the status subresource.
 * Built-in kinds (Pod, Job, Deployment, ...) are skipped. Pure; thread-safe.
 */
public final class CatalogCrds {
    private CatalogCrds() {}

    /** One CRD per non-built-in group and kind in {@code definitions}, ordered by CRD name. */
    public static List<CustomResourceDefinition> of(Definitions definitions) {
        Map<String, List<GroupVersionKind>> byGroupKind = new TreeMap<>();
        definitions.all().stream()
                .map(d -> d.kind())
                .filter(k -> !BuiltInKinds.isBuiltIn(k.group(), k.kind()))
                .forEach(k -> byGroupKind
                        .computeIfAbsent(CrdNames.plural(k.group(), k.kind()) + "." + k.group(), n -> new ArrayList<>())
                        .add(k));
        List<CustomResourceDefinition> crds = new ArrayList<>();
        byGroupKind.forEach((name, kinds) -> crds.add(crd(name, kinds)));
        return List.copyOf(crds);
    }

    private static CustomResourceDefinition crd(String name, List<GroupVersionKind> kinds) {
        GroupVersionKind first = kinds.get(0);
        String group = first.group();
        String kind = first.kind();
        List<String> versions = kinds.stream()
                .map(GroupVersionKind::version)
                .distinct()
                .sorted(VersionPriority.HIGHEST_FIRST)
                .toList();
        List<CustomResourceDefinitionVersion> specVersions = versions.stream()
                .map(v -> version(v, v.equals(versions.get(0))))
                .toList();
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(Map.of("app.kubernetes.io/managed-by", "cartograph-mock"))
                .endMetadata()
                .withNewSpec()
                .withGroup(group)
                .withScope("Namespaced")
                .withNewNames()
                .withKind(kind)
                .withListKind(kind + "List")
                .withPlural(CrdNames.plural(group, kind))
                .withSingular(CrdNames.singular(kind))
                .withShortNames(nullIfEmpty(CrdNames.shortNames(group, kind)))
                .withCategories(nullIfEmpty(CrdNames.categories(group, kind)))
                .endNames()
                .withVersions(specVersions)
                .endSpec()
                .build();
    }

    private static CustomResourceDefinitionVersion version(String version, boolean storage) {
        return new CustomResourceDefinitionVersionBuilder()
                .withName(version)
                .withServed(true)
                .withStorage(storage)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .withNewSubresources()
                .withNewStatus()
                .endStatus()
                .endSubresources()
                .build();
    }

    private static List<String> nullIfEmpty(List<String> list) {
        return list.isEmpty() ? null : list;
    }
}
