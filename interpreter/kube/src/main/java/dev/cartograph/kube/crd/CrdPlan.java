package dev.cartograph.kube.crd;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what installing a list of CRDs on a cluster does, from what the cluster has: its CRDs by name
 * and the kinds API discovery says it serves. The rules, in order:
 *
 * <ol>
 *   <li>a CRD of the same name that Cartograph does not manage (no {@value CatalogCrds#MANAGED_BY_LABEL}={@value
 *       CatalogCrds#MANAGED_BY}; in {@value CartographCrds#GROUP}, another manager named by that label, such as
 *       Helm) is an operator's or that tool's: skipped, never overwritten;
 *   <li>Cartograph's own copy is unchanged when every field generated is there with the same value (what the API
 *       server adds by default, and labels others added, do not count), else updated;
 *   <li>with no CRD of that name, a kind the cluster already serves some other way (another CRD, an aggregated API)
 *       is skipped;
 *   <li>anything else is created.
 * </ol>
 *
 * Pure; thread-safe.
 */
public final class CrdPlan {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /**
     * What a cluster has.
     *
     * @param crds     its CRDs by name
     * @param servedBy for each kind it serves, keyed {@code Kind.group}, what serves it (e.g. {@code kubeflow.org/v1 pytorchjobs})
     */
    public record Cluster(Map<String, CustomResourceDefinition> crds, Map<String, String> servedBy) {
        public Cluster {
            crds = Map.copyOf(crds);
            servedBy = Map.copyOf(servedBy);
        }

        /** A cluster with no CRDs that serves none of the kinds (what {@code --all} plans against). */
        public static final Cluster BARE = new Cluster(Map.of(), Map.of());

        /** The key {@link #servedBy} uses for {@code kind} in {@code group}. */
        public static String key(String group, String kind) {
            return kind + "." + group;
        }
    }

    private CrdPlan() {}

    /** One action per CRD of {@code wanted}, in its order. */
    public static List<CrdAction> of(List<CustomResourceDefinition> wanted, Cluster cluster) {
        return wanted.stream().map(crd -> action(crd, cluster)).toList();
    }

    private static CrdAction action(CustomResourceDefinition wanted, Cluster cluster) {
        String name = wanted.getMetadata().getName();
        CustomResourceDefinition existing = cluster.crds().get(name);
        if (existing != null) {
            if (!managedByCartograph(existing)) {
                return new CrdAction(
                        name, CrdAction.Outcome.SKIP, "served by CRD " + name + ", " + manager(existing), existing);
            }
            if (contains(JSON.convertValue(existing, JsonNode.class), JSON.convertValue(wanted, JsonNode.class))) {
                return new CrdAction(name, CrdAction.Outcome.UNCHANGED, "", existing);
            }
            return new CrdAction(name, CrdAction.Outcome.UPDATE, "", updated(wanted, existing));
        }
        String group = wanted.getSpec().getGroup();
        String kind = wanted.getSpec().getNames().getKind();
        Optional<String> servedBy = Optional.ofNullable(cluster.servedBy().get(Cluster.key(group, kind)));
        if (servedBy.isPresent()) {
            return new CrdAction(name, CrdAction.Outcome.SKIP, "served by " + servedBy.get(), wanted);
        }
        return new CrdAction(name, CrdAction.Outcome.CREATE, "", wanted);
    }

    /**
     * Whether {@code crd} is Cartograph's to update: labelled as managed by it, or in its own group and labelled
     * as managed by nobody. One in its own group that another tool manages (the Helm chart installs
     * clusters.cartograph.dev labelled {@code managed-by: Helm}) is that tool's: updating it would start a tug of
     * war with its next upgrade.
     */
    public static boolean managedByCartograph(CustomResourceDefinition crd) {
        String by = labels(crd).get(CatalogCrds.MANAGED_BY_LABEL);
        return CatalogCrds.MANAGED_BY.equals(by)
                || by == null
                        && crd.getSpec() != null
                        && CartographCrds.GROUP.equals(crd.getSpec().getGroup());
    }

    private static String manager(CustomResourceDefinition crd) {
        String by = labels(crd).get(CatalogCrds.MANAGED_BY_LABEL);
        return by == null ? "not managed by Cartograph" : "managed by " + by;
    }

    /** {@code wanted} with the existing CRD's resourceVersion, and its labels and annotations under wanted's. */
    private static CustomResourceDefinition updated(
            CustomResourceDefinition wanted, CustomResourceDefinition existing) {
        Map<String, String> labels = new LinkedHashMap<>(labels(existing));
        labels.putAll(labels(wanted));
        Map<String, String> annotations = new LinkedHashMap<>(annotations(existing));
        annotations.putAll(annotations(wanted));
        return new CustomResourceDefinitionBuilder(wanted)
                .editMetadata()
                .withLabels(labels)
                .withAnnotations(annotations.isEmpty() ? null : annotations)
                .withResourceVersion(existing.getMetadata().getResourceVersion())
                .endMetadata()
                .build();
    }

    /**
     * Whether {@code actual} has every field of {@code wanted} with the same value: objects field by field
     * (extra fields in {@code actual} allowed), arrays of the same length element by element, scalars equal.
     */
    static boolean contains(JsonNode actual, JsonNode wanted) {
        if (wanted.isObject()) {
            if (!actual.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = wanted.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!actual.has(field.getKey()) || !contains(actual.get(field.getKey()), field.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (wanted.isArray()) {
            if (!actual.isArray() || actual.size() != wanted.size()) {
                return false;
            }
            for (int i = 0; i < wanted.size(); i++) {
                if (!contains(actual.get(i), wanted.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (wanted.isNumber() && actual.isNumber()) {
            return wanted.decimalValue().compareTo(actual.decimalValue()) == 0;
        }
        return wanted.equals(actual);
    }

    private static Map<String, String> labels(CustomResourceDefinition crd) {
        return crd.getMetadata() == null || crd.getMetadata().getLabels() == null
                ? Map.of()
                : crd.getMetadata().getLabels();
    }

    private static Map<String, String> annotations(CustomResourceDefinition crd) {
        return crd.getMetadata() == null || crd.getMetadata().getAnnotations() == null
                ? Map.of()
                : crd.getMetadata().getAnnotations();
    }
}
