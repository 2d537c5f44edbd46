package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the nodes a reader decodes have in common, decoded once and shared: nodes of one shape get the same
 * labels (but the hostname), taints list and allocatable {@link ResourceList}, equal allocations the same list.
 * A fleet of a few node types then costs a reader little more than each node's name, labels map and allocation,
 * and a node record whose parts were seen before is decoded without parsing its quantities again. Parts are
 * keyed by their JSON, so what is shared is exactly what a fresh decoding (with its checks) gave. Bounded: past
 * {@value #MAX_ENTRIES} distinct parts it starts again (sharing is lost for what was held, never correctness).
 * Not thread-safe: one reader.
 */
public final class NodeParts {
    static final int MAX_ENTRIES = 100_000;

    private final Map<JsonNode, Map<String, String>> labels = new HashMap<>();
    private final Map<JsonNode, List<Taint>> taints = new HashMap<>();
    private final Map<JsonNode, ResourceList> resources = new HashMap<>();

    /** The {@code labels} object of a node record as a map (shared); {@code read} reads it the first time. */
    Map<String, String> labels(JsonNode o, Function<JsonNode, Map<String, String>> read) {
        return shared(labels, o, n -> Map.copyOf(read.apply(n)));
    }

    List<Taint> taints(JsonNode o, Function<JsonNode, List<Taint>> read) {
        return shared(taints, o, n -> List.copyOf(read.apply(n)));
    }

    /** A node's allocatable or allocated amounts (shared); {@code read} reads and checks them the first time. */
    ResourceList resources(JsonNode o, Function<JsonNode, ResourceList> read) {
        return o == null || o.isEmpty() ? read.apply(o) : shared(resources, o, read);
    }

    private <T> T shared(Map<JsonNode, T> cache, JsonNode key, Function<JsonNode, T> read) {
        if (key == null || key.isMissingNode()) {
            return read.apply(key);
        }
        T found = cache.get(key);
        if (found != null) {
            return found;
        }
        if (labels.size() + taints.size() + resources.size() >= MAX_ENTRIES) {
            labels.clear();
            taints.clear();
            resources.clear();
        }
        T value = read.apply(key); // throws for a bad part: nothing is cached
        cache.put(key, value);
        return value;
    }

    /** Labels with the hostname added: one small map per node, the rest of its entries shared. */
    static Map<String, String> withHostname(Map<String, String> shape, String hostname) {
        Map<String, String> out = new LinkedHashMap<>(shape);
        out.put(ClusterRecordCodec.HOSTNAME, hostname);
        return out;
    }
}
