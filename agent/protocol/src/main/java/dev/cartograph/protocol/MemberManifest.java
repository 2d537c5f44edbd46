package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;

/**
 * What of a hub object may be created on a member cluster: the one rule the broker (before it
 * forwards) and the agent (before it applies, defensively) both follow. Pure and thread-safe.
 *
 * <p>Removed: what the hub's API server set and a member's would refuse or ignore (identity,
 * versions, timestamps, managed fields, owners, finalizers, status, kubectl's last-applied
 * annotation); a {@code batch/v1} Job's generated selector and the template labels that go with
 * it (and the {@code controller-uid} labels the Job itself got from its template), unless
 * {@code spec.manualSelector} is true: a real API server answers 422 to a Job whose
 * {@code controller-uid} another server generated; and the hub broker's own {@code cartograph.dev/*}
 * labels and annotations other than those the caller keeps.
 */
public final class MemberManifest {
    /** The broker's keys a member copy carries: where it may run and how it ranks. */
    public static final Set<String> FORWARDED =
            Set.of(MetadataKeys.CLUSTER_SELECTOR_ANNOTATION, MetadataKeys.PRIORITY_ANNOTATION);

    private static final List<String> SERVER_SET = List.of(
            "uid",
            "resourceVersion",
            "creationTimestamp",
            "generation",
            "managedFields",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "ownerReferences",
            "selfLink",
            "finalizers");
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
    /** What a Job's API server adds to its selector when it generates it ({@code controller-uid} is the pre-1.27 name). */
    private static final List<String> GENERATED_SELECTOR =
            List.of("batch.kubernetes.io/controller-uid", "controller-uid");
    /** What it adds to the pod template's labels alongside. */
    private static final List<String> GENERATED_TEMPLATE_LABELS =
            List.of("batch.kubernetes.io/controller-uid", "controller-uid", "batch.kubernetes.io/job-name", "job-name");

    private MemberManifest() {}

    /**
     * The member copy of {@code object}: a new tree; {@code object} is not changed. Applying it to its
     * own result changes nothing.
     *
     * @param object a Kubernetes object as JSON (apiVersion, kind, metadata…)
     * @param keep   the {@code cartograph.dev/*} label and annotation keys to carry over (e.g. {@link #FORWARDED});
     *               every other key with that prefix is removed
     * @throws IllegalArgumentException when {@code object} is not a JSON object
     */
    public static ObjectNode of(JsonNode object, Set<String> keep) {
        if (!(object instanceof ObjectNode)) {
            throw new IllegalArgumentException("a Kubernetes object is a JSON object, not " + object.getNodeType());
        }
        ObjectNode copy = ((ObjectNode) object).deepCopy();
        copy.remove("status");
        if (copy.get("metadata") instanceof ObjectNode meta) {
            meta.remove(SERVER_SET);
            if (meta.get("labels") instanceof ObjectNode labels) {
                retainOwn(labels, keep);
            }
            if (meta.get("annotations") instanceof ObjectNode annotations) {
                retainOwn(annotations, keep);
                annotations.remove(LAST_APPLIED);
            }
        }
        if (isJob(copy) && !copy.path("spec").path("manualSelector").asBoolean(false)) {
            withoutGeneratedSelector(copy);
        }
        return copy;
    }

    private static void retainOwn(ObjectNode map, Set<String> keep) {
        List<String> foreign = new java.util.ArrayList<>();
        map.fieldNames().forEachRemaining(k -> {
            if (k.startsWith(MetadataKeys.PREFIX) && !keep.contains(k)) {
                foreign.add(k);
            }
        });
        map.remove(foreign);
    }

    private static boolean isJob(JsonNode o) {
        return "batch/v1".equals(o.path("apiVersion").asText())
                && "Job".equals(o.path("kind").asText());
    }

    /** The member's API server generates its own selector and template labels from the new object's uid. */
    private static void withoutGeneratedSelector(ObjectNode job) {
        if (!(job.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        if (spec.get("selector") instanceof ObjectNode selector) {
            if (selector.get("matchLabels") instanceof ObjectNode matchLabels) {
                matchLabels.remove(GENERATED_SELECTOR);
                if (matchLabels.isEmpty()) {
                    selector.remove("matchLabels");
                }
            }
            if (selector.path("matchExpressions").isEmpty()) {
                selector.remove("matchExpressions");
            }
            if (selector.isEmpty()) {
                spec.remove("selector");
            }
        }
        if (spec.path("template").path("metadata").get("labels") instanceof ObjectNode labels) {
            labels.remove(GENERATED_TEMPLATE_LABELS);
        }
        if (job.path("metadata").get("labels") instanceof ObjectNode own) {
            own.remove(GENERATED_SELECTOR); // defaulted from the template's; they name the hub's uid
        }
    }
}
