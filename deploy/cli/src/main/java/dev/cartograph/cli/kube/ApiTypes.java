package dev.cartograph.cli.kube;

import dev.cartograph.interpreter.definition.BuiltInKinds;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How this cluster serves each kind: asks API discovery first, then the CRDs, then knows the
 * built-in workload kinds, and last guesses the plural the way Kubernetes forms it. Caches per
 * command. Not thread-safe.
 */
public final class ApiTypes {
    private final KubernetesClient client;
    private final Map<String, Optional<List<APIResource>>> discovery = new HashMap<>();
    private List<CustomResourceDefinition> crds;
    private final Map<GroupVersionKind, ApiType> cache = new HashMap<>();

    ApiTypes(KubernetesClient client) {
        this.client = client;
    }

    public ApiType of(GroupVersionKind gvk) {
        return cache.computeIfAbsent(gvk, this::lookUp);
    }

    private ApiType lookUp(GroupVersionKind gvk) {
        Optional<List<APIResource>> resources = discovery.computeIfAbsent(gvk.apiVersion(), this::discover);
        if (resources.isPresent()) {
            Optional<APIResource> found = resources.get().stream()
                    .filter(r -> gvk.kind().equals(r.getKind()) && !r.getName().contains("/"))
                    .findFirst();
            if (found.isPresent()) {
                APIResource r = found.get();
                List<String> shortNames =
                        r.getShortNames() == null || r.getShortNames().isEmpty()
                                ? crdShortNames(gvk)
                                : r.getShortNames();
                return new ApiType(gvk, r.getName(), shortNames, Boolean.TRUE.equals(r.getNamespaced()), true);
            }
        }
        Optional<BuiltInKinds.Kind> builtin = BuiltInKinds.of(gvk);
        if (builtin.isPresent()) {
            return new ApiType(
                    gvk,
                    builtin.get().plural(),
                    builtin.get().shortNames(),
                    builtin.get().namespaced(),
                    true);
        }
        for (CustomResourceDefinition crd : crds()) {
            var spec = crd.getSpec();
            if (gvk.group().equals(spec.getGroup())
                    && gvk.kind().equals(spec.getNames().getKind())) {
                boolean served = spec.getVersions().stream()
                        .filter(v -> gvk.version().equals(v.getName()))
                        .anyMatch(CustomResourceDefinitionVersion::getServed);
                return new ApiType(
                        gvk,
                        spec.getNames().getPlural(),
                        spec.getNames().getShortNames() == null
                                ? List.of()
                                : spec.getNames().getShortNames(),
                        "Namespaced".equals(spec.getScope()),
                        served);
            }
        }
        return new ApiType(gvk, guessPlural(gvk.kind()), List.of(), true, false);
    }

    /** Short names from the kind's CRD (some discovery answers leave them out); none for built-ins. */
    private List<String> crdShortNames(GroupVersionKind gvk) {
        Optional<BuiltInKinds.Kind> builtin = BuiltInKinds.of(gvk);
        if (builtin.isPresent()) {
            return builtin.get().shortNames();
        }
        if (gvk.group().isEmpty()
                || gvk.group().endsWith(".k8s.io") && !gvk.group().contains("x-k8s")) {
            return List.of();
        }
        return crds().stream()
                .filter(c -> gvk.group().equals(c.getSpec().getGroup())
                        && gvk.kind().equals(c.getSpec().getNames().getKind()))
                .findFirst()
                .map(c -> c.getSpec().getNames().getShortNames())
                .filter(l -> l != null)
                .orElse(List.of());
    }

    private Optional<List<APIResource>> discover(String groupVersion) {
        try {
            APIResourceList list = client.getApiResources(groupVersion);
            return list == null
                            || list.getResources() == null
                            || list.getResources().isEmpty()
                    ? Optional.empty()
                    : Optional.of(list.getResources());
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }

    private List<CustomResourceDefinition> crds() {
        if (crds == null) {
            try {
                crds = client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .list()
                        .getItems();
            } catch (KubernetesClientException e) {
                crds = List.of();
            }
        }
        return crds;
    }

    /** English plural as Kubernetes forms resource names: lower case, -y to -ies, -s/-x/-ch/-sh plus es. */
    static String guessPlural(String kind) {
        String k = kind.toLowerCase(Locale.ROOT);
        if (k.endsWith("y") && k.length() > 1 && "aeiou".indexOf(k.charAt(k.length() - 2)) < 0) {
            return k.substring(0, k.length() - 1) + "ies";
        }
        if (k.endsWith("s") || k.endsWith("x") || k.endsWith("ch") || k.endsWith("sh")) {
            return k + "es";
        }
        return k + "s";
    }
}
