package dev.cartograph.mock.server;

import dev.cartograph.mock.selector.FieldSelector;
import dev.cartograph.mock.watch.Selection;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A list or watch request as the CRUD store sees it: the collection path with only the label selector (the one query
 * the store matches itself), and the {@link Selection} of the objects it asks for, field selector included (a name in
 * the path is a {@code metadata.name} selector). Immutable; thread-safe.
 */
record CollectionQuery(ResourcePath resource, Query query) {
    /** {@code /api/v1/namespaces/NS/PLURAL?labelSelector=...}: what the store lists. */
    String storePath() {
        String prefix = resource.group().isEmpty()
                ? "/api/" + resource.version()
                : "/apis/" + resource.group() + "/" + resource.version();
        String labels = query.get("labelSelector")
                .filter(s -> !s.isBlank())
                .map(s -> "?labelSelector=" + URLEncoder.encode(s, StandardCharsets.UTF_8))
                .orElse("");
        return prefix + resource.namespace().map(ns -> "/namespaces/" + ns).orElse("") + "/" + resource.plural()
                + labels;
    }

    /** The objects asked for: the store's key for {@link #storePath()}, and {@code fields}. */
    Selection selection(KubernetesCrudDispatcher store, FieldSelector fields) {
        AttributeSet key = store.getKey(storePath());
        if (resource.name().isPresent()) {
            key = key.add(new Attribute("name", resource.name().get()));
            List<FieldSelector.Requirement> requirements = new ArrayList<>(fields.requirements());
            requirements.add(new FieldSelector.Requirement(
                    "metadata.name", true, resource.name().get()));
            fields = new FieldSelector(requirements);
        }
        return new Selection(key, fields);
    }
}
