package dev.cartograph.kube.crd;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
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
 * interprets, so a cluster that runs none of their operators (a hub, a mock cluster) can store them:
 * one CRD per group and kind, every defined version served, the newest stored, a schema that keeps
 * unknown fields, the status subresource (the broker mirrors the member's status there), and
 * printer columns for where the broker placed the object and its phase (the hub labels
 * {@code cartograph.dev/cluster} and {@code cartograph.dev/phase}). Kinds in a built-in API group
 * (Pod, Job, Deployment, ...) are skipped. Each CRD is labelled {@value #MANAGED_BY_LABEL}={@value
 * #MANAGED_BY}, which is how {@code carto install crds} tells its own CRDs from an operator's. Pure;
 * thread-safe.
 */
public final class CatalogCrds {
    /** The label that says who manages a CRD. */
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

    /** Its value on the CRDs Cartograph generates and installs. */
    public static final String MANAGED_BY = "cartograph";

    /** The annotation the API server requires on CRDs in its protected groups ({@code *.k8s.io}). */
    static final String API_APPROVED_ANNOTATION = "api-approved.kubernetes.io";

    /**
     * Printer columns of every generated version: the member cluster and phase the broker writes as hub labels
     * ({@code MetadataKeys.CLUSTER_LABEL}, {@code MetadataKeys.PHASE_LABEL} in agent/protocol; the dots of the
     * label key are escaped as kubectl's JSONPath wants), then the age every kubectl table ends with.
     */
    static final List<CustomResourceColumnDefinition> PRINTER_COLUMNS = List.of(
            column(
                    "Cluster",
                    "string",
                    ".metadata.labels.cartograph\\.dev/cluster",
                    "Member cluster the object runs on"),
            column("Phase", "string", ".metadata.labels.cartograph\\.dev/phase", "Phase the broker last wrote"),
            column("Age", "date", ".metadata.creationTimestamp", ""));

    private CatalogCrds() {}

    /** One CRD per group and kind of {@code definitions} outside the built-in API groups, ordered by CRD name. */
    public static List<CustomResourceDefinition> of(Definitions definitions) {
        Map<String, List<GroupVersionKind>> byName = new TreeMap<>();
        definitions.all().stream()
                .map(d -> d.kind())
                .filter(k -> !BuiltInGroups.isBuiltIn(k.group()))
                .forEach(k ->
                        byName.computeIfAbsent(name(k), n -> new ArrayList<>()).add(k));
        List<CustomResourceDefinition> crds = new ArrayList<>();
        byName.forEach((name, kinds) -> crds.add(crd(name, kinds)));
        return List.copyOf(crds);
    }

    /** {@code plural.group}, the name of the CRD that serves {@code kind}. */
    public static String name(GroupVersionKind kind) {
        return CrdNames.plural(kind.group(), kind.kind()) + "." + kind.group();
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
                .withLabels(Map.of(MANAGED_BY_LABEL, MANAGED_BY))
                .withAnnotations(
                        BuiltInGroups.isProtected(group)
                                ? Map.of(API_APPROVED_ANNOTATION, CrdNames.approval(group))
                                : null)
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
                .withAdditionalPrinterColumns(PRINTER_COLUMNS)
                .build();
    }

    private static CustomResourceColumnDefinition column(
            String name, String type, String jsonPath, String description) {
        return new CustomResourceColumnDefinitionBuilder()
                .withName(name)
                .withType(type)
                .withJsonPath(jsonPath)
                .withDescription(description.isEmpty() ? null : description)
                .build();
    }

    private static List<String> nullIfEmpty(List<String> list) {
        return list.isEmpty() ? null : list;
    }
}
