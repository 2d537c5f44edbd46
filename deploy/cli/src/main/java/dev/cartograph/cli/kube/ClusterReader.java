package dev.cartograph.cli.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads objects of any kind as JSON trees, in pages, from one namespace or all. The only place
 * that lists through fabric8; callers see plain trees, and a failed call as a {@link Kube.ClusterError}.
 * Not thread-safe.
 */
public final class ClusterReader {
    private final KubernetesClient client;
    private final int pageSize;

    ClusterReader(KubernetesClient client, int pageSize) {
        this.client = client;
        this.pageSize = pageSize;
    }

    public String defaultNamespace() {
        return client.getConfiguration().getNamespace();
    }

    /** Every object of {@code type} in {@code namespace} (empty: all namespaces), optionally label-selected. */
    public List<JsonNode> list(ApiType type, Optional<String> namespace, Optional<String> labelSelector) {
        try {
            return listPages(type, namespace, labelSelector);
        } catch (KubernetesClientException e) {
            throw Kube.failed(e);
        }
    }

    private List<JsonNode> listPages(ApiType type, Optional<String> namespace, Optional<String> labelSelector) {
        List<JsonNode> out = new ArrayList<>();
        String next = null;
        do {
            ListOptions options = new ListOptionsBuilder()
                    .withLimit((long) pageSize)
                    .withContinue(next)
                    .withLabelSelector(labelSelector.orElse(null))
                    .build();
            GenericKubernetesResourceList page = scope(type, namespace).list(options);
            for (GenericKubernetesResource item : page.getItems()) {
                out.add(tree(item, type));
            }
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        return out;
    }

    public Optional<JsonNode> get(ApiType type, String namespace, String name) {
        Resource<GenericKubernetesResource> r = type.namespaced()
                ? client.genericKubernetesResources(type.context())
                        .inNamespace(namespace)
                        .withName(name)
                : client.genericKubernetesResources(type.context()).withName(name);
        GenericKubernetesResource item;
        try {
            item = r.get();
        } catch (KubernetesClientException e) {
            throw Kube.failed(e);
        }
        return Optional.ofNullable(item).map(i -> tree(i, type));
    }

    private FilterWatchListDeletable<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            scope(ApiType type, Optional<String> namespace) {
        var all = client.genericKubernetesResources(type.context());
        if (!type.namespaced()) {
            return all;
        }
        return namespace
                .<FilterWatchListDeletable<
                                GenericKubernetesResource,
                                GenericKubernetesResourceList,
                                Resource<GenericKubernetesResource>>>
                        map(ns -> all.inNamespace(ns))
                .orElseGet(all::inAnyNamespace);
    }

    private static JsonNode tree(GenericKubernetesResource item, ApiType type) {
        JsonNode node = Documents.json().valueToTree(item);
        if (node.isObject() && !node.hasNonNull("apiVersion")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) node)
                    .put("apiVersion", type.gvk().apiVersion());
        }
        if (node.isObject() && !node.hasNonNull("kind")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) node)
                    .put("kind", type.gvk().kind());
        }
        return node;
    }
}
