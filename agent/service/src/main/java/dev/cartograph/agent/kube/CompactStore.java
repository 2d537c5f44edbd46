package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * An informer's item store that holds each object as the JSON bytes of what {@code keep} leaves of it (see
 * {@link Kept}), instead of the object graph fabric8 deserialized: a pod of 500 bytes of JSON is 500 bytes here, not
 * the 3 KB or more of its model objects. The informer gets objects back decoded (its update notifications compare
 * resource versions); the cache's readers get JSON trees straight from the bytes ({@link #trees}, {@link #tree}), each
 * call a fresh copy. Keys are the informer's default ({@code namespace/name}, or the name of a cluster-scoped
 * object).
 *
 * <p>fabric8's own {@code ReducedStateItemStore} keeps whole top-level fields (all of {@code spec.containers} or
 * none), as maps, so it saves little here; this store keeps what {@code keep} decides, field by field.
 * Thread-safe: a concurrent map of byte arrays that are never changed.
 */
final class CompactStore<T extends HasMetadata> implements ItemStore<T> {
    private final ConcurrentHashMap<String, byte[]> items = new ConcurrentHashMap<>();
    private final Class<T> type;
    private final UnaryOperator<ObjectNode> keep;

    /** @param keep trims an object's JSON tree (it may change and return its argument) to what is stored */
    CompactStore(Class<T> type, UnaryOperator<ObjectNode> keep) {
        this.type = type;
        this.keep = keep;
    }

    @Override
    public String getKey(T obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    @Override
    public T put(String key, T obj) {
        return decode(items.put(key, encode(obj)));
    }

    @Override
    public T remove(String key) {
        return decode(items.remove(key));
    }

    @Override
    public Stream<String> keySet() {
        return items.keySet().stream();
    }

    @Override
    public Stream<T> values() {
        return items.values().stream().map(this::decode);
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public T get(String key) {
        return decode(items.get(key));
    }

    /** Every stored object as the tree its readers see. */
    List<JsonNode> trees() {
        List<JsonNode> out = new ArrayList<>(items.size());
        items.values().forEach(bytes -> out.add(tree(bytes)));
        return out;
    }

    /** The stored object under {@code key} ({@code namespace/name}), as its readers see it. */
    Optional<JsonNode> tree(String key) {
        return Optional.ofNullable(items.get(key)).map(CompactStore::tree);
    }

    /** What this store keeps of {@code obj}, as its readers will see it. */
    JsonNode kept(T obj) {
        return keep.apply(Documents.json().valueToTree(obj));
    }

    private byte[] encode(T obj) {
        try {
            return Documents.json().writeValueAsBytes(kept(obj));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + getKey(obj) + " for the informer cache", e);
        }
    }

    private T decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return Documents.json().readValue(bytes, type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode a " + type.getSimpleName() + " from the informer cache", e);
        }
    }

    private static JsonNode tree(byte[] bytes) {
        try {
            return Documents.json().readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an object from the informer cache", e);
        }
    }
}
