package dev.cartograph.interpreter.mutate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What to change in every pod template of a workload (or of one component): labels and
 * annotations merged in, scheduler and priority class set, tolerations appended (unless already
 * there), node selector entries merged in. Immutable.
 */
public record PodPatch(
        Map<String, String> labels,
        Map<String, String> annotations,
        Optional<String> schedulerName,
        List<JsonNode> tolerations,
        Map<String, String> nodeSelector,
        Optional<String> priorityClassName) {

    public static final PodPatch EMPTY =
            new PodPatch(Map.of(), Map.of(), Optional.empty(), List.of(), Map.of(), Optional.empty());

    public PodPatch {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
        tolerations = List.copyOf(tolerations);
        nodeSelector = Map.copyOf(nodeSelector);
    }

    public PodPatch withLabel(String key, String value) {
        Map<String, String> m = new java.util.TreeMap<>(labels);
        m.put(key, value);
        return new PodPatch(m, annotations, schedulerName, tolerations, nodeSelector, priorityClassName);
    }

    public PodPatch withAnnotation(String key, String value) {
        Map<String, String> m = new java.util.TreeMap<>(annotations);
        m.put(key, value);
        return new PodPatch(labels, m, schedulerName, tolerations, nodeSelector, priorityClassName);
    }

    public PodPatch withSchedulerName(String name) {
        return new PodPatch(labels, annotations, Optional.of(name), tolerations, nodeSelector, priorityClassName);
    }

    public PodPatch withPriorityClassName(String name) {
        return new PodPatch(labels, annotations, schedulerName, tolerations, nodeSelector, Optional.of(name));
    }

    public PodPatch withToleration(JsonNode toleration) {
        List<JsonNode> t = new java.util.ArrayList<>(tolerations);
        t.add(toleration);
        return new PodPatch(labels, annotations, schedulerName, t, nodeSelector, priorityClassName);
    }

    public PodPatch withNodeSelector(String key, String value) {
        Map<String, String> m = new java.util.TreeMap<>(nodeSelector);
        m.put(key, value);
        return new PodPatch(labels, annotations, schedulerName, tolerations, m, priorityClassName);
    }
}
