package dev.cartograph.simulator.pods;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.view.Identity;
import java.util.Map;

/**
 * Builds the Pod object for a planned pod: the instance's pod template when it has one (its
 * labels, annotations and spec, without {@code nodeName}), else one container requesting the
 * per-pod resources; simulator labels; a controller owner reference to the workload. Pure; returns
 * new nodes.
 */
public final class PodManifests {
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String SIMULATOR = "cartograph-simulator";
    public static final String WORKLOAD_LABEL = "sim.cartograph.dev/workload";
    public static final String COMPONENT_LABEL = "sim.cartograph.dev/component";
    public static final String INSTANCE_LABEL = "sim.cartograph.dev/instance";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private PodManifests() {}

    /**
     * @param owner      the workload; its uid must be present
     * @param kindLabels extra labels (the kind's, so its definition's pod selectors can attribute the pod)
     */
    public static ObjectNode build(Identity owner, PlannedPod pod, Map<String, String> kindLabels) {
        JsonNode template = pod.instance().podTemplate().orElse(F.objectNode());
        ObjectNode metadata = F.objectNode().put("name", pod.name());
        owner.namespace().ifPresent(ns -> metadata.put("namespace", ns));
        ObjectNode labels = copyObject(template.path("metadata").path("labels"));
        kindLabels.forEach(labels::put);
        labels.put(MANAGED_BY, SIMULATOR);
        labels.put(WORKLOAD_LABEL, labelValue(owner.name()));
        labels.put(COMPONENT_LABEL, labelValue(pod.component()));
        labels.put(INSTANCE_LABEL, labelValue(pod.instance().id()));
        metadata.set("labels", labels);
        metadata.set("annotations", copyObject(template.path("metadata").path("annotations")));
        metadata.putArray("ownerReferences")
                .addObject()
                .put("apiVersion", owner.apiVersion())
                .put("kind", owner.kind())
                .put("name", owner.name())
                .put(
                        "uid",
                        owner.uid().orElseThrow(() -> new IllegalArgumentException(owner.describe() + " has no uid")))
                .put("controller", true)
                .put("blockOwnerDeletion", true);
        ObjectNode pod0 = F.objectNode().put("apiVersion", "v1").put("kind", "Pod");
        pod0.set("metadata", metadata);
        pod0.set("spec", spec(template.path("spec"), pod));
        pod0.putObject("status").put("phase", "Pending");
        return pod0;
    }

    private static ObjectNode spec(JsonNode templateSpec, PlannedPod pod) {
        ObjectNode spec = templateSpec.isObject() ? ((ObjectNode) templateSpec).deepCopy() : F.objectNode();
        spec.remove("nodeName");
        if (!spec.path("containers").isArray() || spec.path("containers").isEmpty()) {
            ObjectNode requests = F.objectNode();
            pod.instance().perPod().amounts().forEach((name, amount) -> requests.put(name, Quantity.format(amount)));
            ObjectNode main = F.objectNode().put("name", "main").put("image", "simulated");
            main.putObject("resources").set("requests", requests);
            spec.putArray("containers").add(main);
        }
        return spec;
    }

    private static ObjectNode copyObject(JsonNode node) {
        return node.isObject() ? ((ObjectNode) node).deepCopy() : F.objectNode();
    }

    /** A valid label value: at most 63 characters of [a-z0-9A-Z-_.], alphanumeric at both ends. */
    static String labelValue(String text) {
        String v = text.replaceAll("[^A-Za-z0-9._-]", "-");
        v = v.length() > 63 ? v.substring(0, 63) : v;
        v = v.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
        return v.isEmpty() ? "x" : v;
    }
}
