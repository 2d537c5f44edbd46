package dev.cartograph.placement;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import dev.cartograph.protocol.MetadataKeys;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The topology a workload asks for, as users already write it: Kueue's {@value #KUEUE_REQUIRED} and {@value
 * #KUEUE_PREFERRED} annotations on a pod template (that pod set) or on the workload (the whole gang), and
 * Cartograph's {@value #REQUIRED} and {@value #PREFERRED} on the workload (the whole gang). Each names a node label
 * key, the topology level. A required request wins over a preferred one; one of the workload over those of its pod
 * sets when they name the same level. A gang is kept in one domain of one level, so requests naming different levels
 * are refused with a reason, as is a value that is not a label key. Pure.
 */
public final class TopologyAsks {
    public static final String REQUIRED = MetadataKeys.PREFIX + "required-topology";
    public static final String PREFERRED = MetadataKeys.PREFIX + "preferred-topology";
    public static final String KUEUE_REQUIRED = "kueue.x-k8s.io/podset-required-topology";
    public static final String KUEUE_PREFERRED = "kueue.x-k8s.io/podset-preferred-topology";

    /** A label key: an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
    private static final Pattern LABEL_KEY = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

    private TopologyAsks() {}

    /** What was asked, or why it cannot be honoured (naming the annotation and the pod set). */
    public record Asked(GangTopology topology, Optional<String> problem) {}

    public static Asked of(JsonNode object, WorkloadView view) {
        JsonNode annotations = object.path("metadata").path("annotations");
        Map<String, String> required = new TreeMap<>(); // pod set ("" for the workload) → level
        Map<String, String> preferred = new TreeMap<>();
        java.util.List<String> problems = new java.util.ArrayList<>();
        read(annotations, REQUIRED, "the workload", "", required).ifPresent(problems::add);
        read(annotations, KUEUE_REQUIRED, "the workload", "", required).ifPresent(problems::add);
        read(annotations, PREFERRED, "the workload", "", preferred).ifPresent(problems::add);
        read(annotations, KUEUE_PREFERRED, "the workload", "", preferred).ifPresent(problems::add);
        for (ComponentView c : view.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (i.podTemplate().isEmpty()) {
                    continue;
                }
                JsonNode podAnnotations = i.podTemplate().get().path("metadata").path("annotations");
                String where = "the pod template of " + c.name();
                read(podAnnotations, KUEUE_REQUIRED, where, c.name(), required).ifPresent(problems::add);
                read(podAnnotations, KUEUE_PREFERRED, where, c.name(), preferred)
                        .ifPresent(problems::add);
            }
        }
        if (!problems.isEmpty()) {
            return new Asked(GangTopology.NONE, Optional.of(problems.get(0)));
        }
        return required.isEmpty()
                ? of(preferred, GangTopology.Mode.PREFERRED)
                : of(required, GangTopology.Mode.REQUIRED);
    }

    /** One annotation into {@code asks} under {@code podSet}; the problem when its value is no label key. */
    private static Optional<String> read(
            JsonNode annotations, String key, String where, String podSet, Map<String, String> asks) {
        JsonNode v = annotations.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        String level = v.asText("").strip();
        if (!LABEL_KEY.matcher(level).matches() || level.length() > 317) {
            return Optional.of("annotation " + key + " on " + where + " is '" + v.asText("")
                    + "', not a node label key (for example nvidia.com/gpu.clique or topology.kubernetes.io/zone)");
        }
        asks.putIfAbsent(podSet, level);
        return Optional.empty();
    }

    private static Asked of(Map<String, String> asks, GangTopology.Mode mode) {
        if (asks.isEmpty()) {
            return new Asked(GangTopology.NONE, Optional.empty());
        }
        java.util.Set<String> levels = new java.util.TreeSet<>(asks.values());
        if (levels.size() > 1) {
            return new Asked(
                    GangTopology.NONE,
                    Optional.of("the " + mode.name().toLowerCase(java.util.Locale.ROOT)
                            + " topology names several levels " + describe(asks)
                            + "; a gang is kept in one domain of one level: ask for one"));
        }
        String level = levels.iterator().next();
        GangTopology whole = new GangTopology(level, mode, java.util.Set.of());
        return new Asked(asks.containsKey("") ? whole : whole.of(asks.keySet()), Optional.empty());
    }

    private static String describe(Map<String, String> asks) {
        StringBuilder out = new StringBuilder("(");
        asks.forEach((podSet, level) -> out.append(out.length() > 1 ? ", " : "")
                .append(podSet.isEmpty() ? "workload" : podSet)
                .append(": ")
                .append(level));
        return out.append(")").toString();
    }
}
