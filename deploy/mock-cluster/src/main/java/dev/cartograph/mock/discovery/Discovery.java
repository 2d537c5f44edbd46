package dev.cartograph.mock.discovery;

import dev.cartograph.kube.crd.VersionPriority;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersions;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.ServerAddressByClientCIDR;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The legacy (unaggregated) discovery documents for a set of resource types: {@code /api},
 * {@code /api/v1}, {@code /apis} and {@code /apis/GROUP/VERSION}. A snapshot: immutable and
 * thread-safe; build a new one when the CRDs change.
 */
public final class Discovery {
    private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");

    private final List<ApiKind> kinds;

    private Discovery(List<ApiKind> kinds) {
        this.kinds = List.copyOf(kinds);
    }

    /** The built-in kinds first, then every served version of {@code crds} (a CRD's own group wins over nothing). */
    public static Discovery of(List<ApiKind> builtIns, List<CustomResourceDefinition> crds) {
        List<ApiKind> all = new ArrayList<>(builtIns);
        crds.stream()
                .sorted(Comparator.comparing(
                        c -> c.getSpec() == null ? "" : c.getSpec().getGroup(),
                        Comparator.nullsFirst(Comparator.naturalOrder())))
                .flatMap(c -> CrdKinds.of(c).stream())
                .filter(k -> all.stream().noneMatch(b -> sameResource(b, k)))
                .forEach(all::add);
        return new Discovery(all);
    }

    public List<ApiKind> kinds() {
        return kinds;
    }

    /** {@code /api}: the core group's versions. */
    public APIVersions coreVersions(String serverAddress) {
        return new APIVersionsBuilder()
                .withVersions("v1")
                .withServerAddressByClientCIDRs(new ServerAddressByClientCIDR("0.0.0.0/0", serverAddress))
                .build();
    }

    /** {@code /apis}: every named group, its versions highest priority first, that one preferred. */
    public APIGroupList groups() {
        Map<String, List<String>> versionsByGroup = new LinkedHashMap<>();
        kinds.stream().filter(k -> !k.group().isEmpty()).forEach(k -> {
            List<String> versions = versionsByGroup.computeIfAbsent(k.group(), g -> new ArrayList<>());
            if (!versions.contains(k.version())) {
                versions.add(k.version());
            }
        });
        List<APIGroup> groups = versionsByGroup.entrySet().stream()
                .map(e -> group(e.getKey(), e.getValue()))
                .toList();
        return new APIGroupListBuilder().withGroups(groups).build();
    }

    /** {@code /api/v1} or {@code /apis/GROUP/VERSION}; empty when nothing is served there. */
    public Optional<APIResourceList> resources(String group, String version) {
        List<ApiKind> served = kinds.stream()
                .filter(k -> k.group().equals(group) && k.version().equals(version))
                .toList();
        if (served.isEmpty()) {
            return Optional.empty();
        }
        List<APIResource> resources = served.stream().flatMap(this::resourcesOf).toList();
        return Optional.of(new APIResourceListBuilder()
                .withGroupVersion(served.get(0).groupVersion())
                .withResources(resources)
                .build());
    }

    private Stream<APIResource> resourcesOf(ApiKind k) {
        APIResource main = new APIResourceBuilder()
                .withName(k.plural())
                .withSingularName(k.singular())
                .withNamespaced(k.namespaced())
                .withKind(k.kind())
                .withVerbs(k.verbs())
                .withShortNames(k.shortNames().isEmpty() ? null : k.shortNames())
                .withCategories(k.categories().isEmpty() ? null : k.categories())
                .build();
        Stream<APIResource> status = !k.statusSubresource()
                ? Stream.empty()
                : Stream.of(new APIResourceBuilder()
                        .withName(k.plural() + "/status")
                        .withSingularName("")
                        .withNamespaced(k.namespaced())
                        .withKind(k.kind())
                        .withVerbs(STATUS_VERBS)
                        .build());
        Stream<APIResource> scale = !k.scaleSubresource()
                ? Stream.empty()
                : Stream.of(new APIResourceBuilder()
                        .withName(k.plural() + "/scale")
                        .withSingularName("")
                        .withNamespaced(k.namespaced())
                        .withGroup("autoscaling")
                        .withVersion("v1")
                        .withKind("Scale")
                        .withVerbs(STATUS_VERBS)
                        .build());
        return Stream.concat(Stream.of(main), Stream.concat(status, scale));
    }

    private static APIGroup group(String name, List<String> versions) {
        List<GroupVersionForDiscovery> sorted = versions.stream()
                .sorted(VersionPriority.HIGHEST_FIRST)
                .map(v -> new GroupVersionForDiscovery(name + "/" + v, v))
                .toList();
        return new APIGroupBuilder()
                .withName(name)
                .withVersions(sorted)
                .withPreferredVersion(sorted.get(0))
                .build();
    }

    private static boolean sameResource(ApiKind a, ApiKind b) {
        return a.group().equals(b.group())
                && a.version().equals(b.version())
                && a.plural().equals(b.plural());
    }
}
