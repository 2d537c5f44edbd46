package dev.cartograph.agent.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.DependencyManifest;
import dev.cartograph.protocol.MetadataKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What an agent does to the member copies of a placement's dependencies ({@link Command.Apply#dependencies}): one
 * decision per object from what the member holds now, and which objects an apply or a delete uses and releases.
 * Pure; the kube adapter reads, asks, and acts. Thread-safe.
 *
 * <p>A copy is Cartograph's when it carries {@code app.kubernetes.io/managed-by=cartograph-agent} and
 * {@code cartograph.dev/dependency=true}; an object without both is never touched. Each placement that uses a copy
 * has its own label ({@link #usedBy}), so a copy shared by two gangs stays until neither uses it. Content follows
 * the hub: a ConfigMap's data, a Secret's data and type, a ServiceAccount's image pull secrets and token mounting
 * are replaced by what the latest apply sent, whatever its epoch. A PersistentVolumeClaim is created once and its
 * spec never changed (a claim's spec is mostly immutable); only its labels change, and a claim no placement uses
 * any more is kept, unlabelled, with its data: deleting it is a person's decision.
 */
public final class Dependencies {
    /** The value of {@link MetadataKeys#DEPENDENCY_LABEL} and of every {@link #usedBy} label. */
    public static final String TRUE = "true";

    private static final String CLAIM = "PersistentVolumeClaim";
    /** What of each kind follows the hub after the copy exists (a claim: nothing). */
    private static final Map<String, List<String>> CONTENT = Map.of(
            "ConfigMap",
            List.of("data", "binaryData", "immutable"),
            "Secret",
            List.of("data", "type", "immutable"),
            "ServiceAccount",
            List.of("imagePullSecrets", "automountServiceAccountToken"),
            CLAIM,
            List.of());
    /** A label key's name part (after the prefix): at most 63 characters, alphanumeric at both ends. */
    private static final Pattern LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

    private Dependencies() {}

    /** What to do to one member object. */
    public sealed interface Change {
        record Create(JsonNode object) implements Change {}

        /** Write {@code object} (it carries the resourceVersion read, so a concurrent change is not lost). */
        record Replace(JsonNode object) implements Change {}

        record Delete(JsonNode existing) implements Change {}

        record None() implements Change {}

        /** Not done: the apply answers {@code outcome} with {@code reason}. */
        record Refuse(CommandResult.Outcome outcome, String reason) implements Change {}
    }

    /**
     * The label that says placement {@code placementId} uses a copy: {@code used-by.cartograph.dev/<id>}, or, when
     * the id is not a valid label name (at most 63 characters, alphanumeric, {@code -_.} inside), {@code sha256-}
     * and the first 56 hex digits of the id's SHA-256.
     */
    public static String usedBy(String placementId) {
        if (LABEL_NAME.matcher(placementId).matches()) {
            return MetadataKeys.USED_BY_PREFIX + placementId;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(placementId.getBytes(StandardCharsets.UTF_8));
            return MetadataKeys.USED_BY_PREFIX + "sha256-"
                    + HexFormat.of().formatHex(hash).substring(0, 56);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** True when {@code object} is a dependency copy an agent created. */
    public static boolean ours(JsonNode object) {
        JsonNode labels = object.path("metadata").path("labels");
        return Ownership.MANAGED_BY.equals(
                        labels.path(Ownership.MANAGED_BY_LABEL).asText())
                && TRUE.equals(labels.path(MetadataKeys.DEPENDENCY_LABEL).asText());
    }

    /**
     * Why the agent refuses an apply's dependencies, if it does: naming the entry ({@code dependencies[i]}) and the
     * object. A dependency must be a v1 ConfigMap, Secret (not a service account token), ServiceAccount or
     * PersistentVolumeClaim ({@link DependencyManifest#refusal}), named, in the workload's namespace, and listed once.
     */
    public static Optional<String> refusal(Command.Apply apply) {
        String namespace = apply.manifest().path("metadata").path("namespace").asText();
        Set<DependencyRef> seen = new HashSet<>();
        List<JsonNode> dependencies = apply.dependencies();
        for (int i = 0; i < dependencies.size(); i++) {
            JsonNode d = dependencies.get(i);
            DependencyRef ref = DependencyRef.of(d);
            String field = "dependencies[" + i + "]: ";
            Optional<String> refused = DependencyManifest.refusal(d);
            if (refused.isPresent()) {
                return Optional.of(field + refused.get());
            }
            if (ref.name().isEmpty()) {
                return Optional.of(field + ref.kind() + " has no metadata.name");
            }
            if (!ref.namespace().equals(namespace)) {
                return Optional.of(field + ref + " is not in the workload's namespace " + namespace
                        + "; a dependency is copied only into its workload's namespace");
            }
            if (!seen.add(ref)) {
                return Optional.of(field + ref + " is listed twice");
            }
        }
        return Optional.empty();
    }

    /**
     * Makes the member copy of {@code dependency} serve {@code placementId}: created when {@code current} is absent;
     * else, when it is Cartograph's, labelled for the placement and (but a claim) given the content sent; refused
     * when it is someone else's (FAILED: the broker tries another cluster) or being deleted (RETRY).
     */
    public static Change use(Optional<JsonNode> current, JsonNode dependency, String placementId) {
        JsonNode wanted = copy(dependency, placementId);
        DependencyRef ref = DependencyRef.of(wanted);
        if (current.isEmpty()) {
            return new Change.Create(wanted);
        }
        JsonNode found = current.get();
        if (!found.path("metadata").path("deletionTimestamp").isMissingNode()) {
            return new Change.Refuse(
                    CommandResult.Outcome.RETRY,
                    ref + " is being deleted on this cluster; it can be created again once it is gone");
        }
        if (!ours(found)) {
            return new Change.Refuse(
                    CommandResult.Outcome.FAILED,
                    ref + " already exists on this cluster and was not created by Cartograph; it is left alone");
        }
        ObjectNode next = ref.kind().equals(CLAIM) ? found.deepCopy() : withContent(found, wanted);
        next.with("metadata").with("labels").put(usedBy(placementId), TRUE);
        return next.equals(found) ? new Change.None() : new Change.Replace(next);
    }

    /** {@code found} with the content, labels and annotations of {@code wanted}, keeping the placements' labels. */
    private static ObjectNode withContent(JsonNode found, JsonNode wanted) {
        ObjectNode next = found.deepCopy();
        for (String field : CONTENT.get(wanted.path("kind").asText())) {
            if (wanted.has(field)) {
                next.set(field, wanted.get(field));
            } else if (!field.equals("type")) { // a Secret's type is defaulted by the API server
                next.remove(field);
            }
        }
        ObjectNode meta = next.with("metadata");
        ObjectNode labels = ((ObjectNode) wanted.path("metadata").path("labels")).deepCopy();
        found.path("metadata").path("labels").fields().forEachRemaining(e -> {
            if (e.getKey().startsWith(MetadataKeys.USED_BY_PREFIX)) {
                labels.set(e.getKey(), e.getValue());
            }
        });
        meta.set("labels", labels);
        JsonNode annotations = wanted.path("metadata").path("annotations");
        if (annotations.isObject() && !annotations.isEmpty()) {
            meta.set("annotations", annotations);
        } else {
            meta.remove("annotations");
        }
        return next;
    }

    /**
     * Ends {@code placementId}'s use of a copy: its label removed; then a ConfigMap, Secret or ServiceAccount no
     * placement uses is deleted, a claim kept. Nothing for an object that is not Cartograph's or not labelled.
     */
    public static Change release(Optional<JsonNode> current, String placementId) {
        String label = usedBy(placementId);
        if (current.isEmpty()
                || !ours(current.get())
                || current.get().path("metadata").path("labels").path(label).isMissingNode()) {
            return new Change.None();
        }
        ObjectNode next = current.get().deepCopy();
        ObjectNode labels = next.with("metadata").with("labels");
        labels.remove(label);
        boolean used = false;
        for (var names = labels.fieldNames(); names.hasNext(); ) {
            used |= names.next().startsWith(MetadataKeys.USED_BY_PREFIX);
        }
        return used || CLAIM.equals(next.path("kind").asText())
                ? new Change.Replace(next)
                : new Change.Delete(current.get());
    }

    /**
     * Of the copies labelled for a placement ({@code labelled}), those its dependencies ({@code listed}) no longer
     * name: released once the workload is applied.
     */
    public static List<DependencyRef> dropped(List<DependencyRef> labelled, List<JsonNode> listed) {
        Set<DependencyRef> named = new HashSet<>();
        listed.forEach(d -> named.add(DependencyRef.of(d)));
        return labelled.stream().filter(r -> !named.contains(r)).toList();
    }

    /** True when {@code current} is Cartograph's copy and labelled for {@code placementId}. */
    public static boolean labelledFor(Optional<JsonNode> current, String placementId) {
        return current.filter(Dependencies::ours)
                .filter(o -> o.path("metadata").path("labels").has(usedBy(placementId)))
                .isPresent();
    }

    /** The copy to create: the member manifest of the hub object, any marks it came with replaced by this agent's. */
    private static ObjectNode copy(JsonNode dependency, String placementId) {
        ObjectNode copy = DependencyManifest.of(dependency);
        ObjectNode labels = copy.with("metadata").with("labels");
        List<String> foreign = new ArrayList<>();
        labels.fieldNames().forEachRemaining(k -> {
            if (k.startsWith(MetadataKeys.USED_BY_PREFIX)) {
                foreign.add(k);
            }
        });
        labels.remove(foreign);
        labels.put(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY)
                .put(MetadataKeys.DEPENDENCY_LABEL, TRUE)
                .put(usedBy(placementId), TRUE);
        return copy;
    }
}
