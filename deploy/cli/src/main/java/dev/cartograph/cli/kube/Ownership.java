package dev.cartograph.cli.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which workload each pod belongs to, by walking owner references up through whatever kinds sit
 * between (ReplicaSets, Jobs, StatefulSets, PodCliques…), listing each intermediate kind once.
 * Shape-blind: it needs no knowledge of the workload kinds. Not thread-safe.
 */
public final class Ownership {
    private static final int MAX_DEPTH = 6;

    private final Map<String, String> ownerOf = new HashMap<>();
    private final List<JsonNode> pods;

    private Ownership(List<JsonNode> pods) {
        this.pods = pods;
    }

    /** Indexes {@code pods} and the owners above them, in {@code namespace} (empty: all). */
    public static Ownership index(
            List<JsonNode> pods, ClusterReader reader, ApiTypes types, Optional<String> namespace) {
        Ownership o = new Ownership(pods);
        Set<String> seenKinds = new HashSet<>();
        List<JsonNode> level = pods;
        for (int depth = 0; depth < MAX_DEPTH && !level.isEmpty(); depth++) {
            Set<GroupVersionKind> ownerKinds = new LinkedHashSet<>();
            for (JsonNode object : level) {
                controller(object).ifPresent(ref -> {
                    o.ownerOf.put(
                            object.path("metadata").path("uid").asText(),
                            ref.path("uid").asText());
                    ownerKinds.add(GroupVersionKind.of(
                            ref.path("apiVersion").asText(), ref.path("kind").asText()));
                });
            }
            List<JsonNode> next = new ArrayList<>();
            for (GroupVersionKind kind : ownerKinds) {
                if (seenKinds.add(kind.apiVersion() + "/" + kind.kind())) {
                    try {
                        next.addAll(reader.list(types.of(kind), namespace, Optional.empty()));
                    } catch (Kube.ClusterError e) {
                        // an owner kind we may not list: pods stop at that level
                    }
                }
            }
            level = next;
        }
        return o;
    }

    /** The pods whose owner chain reaches the object with {@code uid}. */
    public List<JsonNode> podsOf(String uid) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode pod : pods) {
            String current = pod.path("metadata").path("uid").asText();
            for (int i = 0; i <= MAX_DEPTH && current != null; i++) {
                current = ownerOf.get(current);
                if (uid.equals(current)) {
                    out.add(pod);
                    break;
                }
            }
        }
        return out;
    }

    /** The uid of an object's controlling owner, if any. */
    public Optional<String> ownerUid(JsonNode object) {
        return controller(object).map(ref -> ref.path("uid").asText());
    }

    /** The controller owner reference, or the only one. */
    public static Optional<JsonNode> controller(JsonNode object) {
        JsonNode refs = object.path("metadata").path("ownerReferences");
        JsonNode only = null;
        for (JsonNode ref : refs) {
            if (ref.path("controller").asBoolean(false)) {
                return Optional.of(ref);
            }
            only = refs.size() == 1 ? ref : null;
        }
        return Optional.ofNullable(only);
    }
}
