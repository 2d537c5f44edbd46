package dev.cartograph.interpreter.definition;

import dev.cartograph.interpreter.jq.JqExpression;
import java.util.Map;
import java.util.Optional;

/** Where a component's pods are described: exactly one of three shapes. Immutable. */
public sealed interface SpecDefinition {

    /** {@code podTemplateSpecPath}: a full pod template ({@code metadata} + {@code spec}). */
    record PodTemplate(JqExpression path) implements SpecDefinition {}

    /** {@code podSpecPath} and optional {@code metadataPath}: a pod spec and its metadata. */
    record PodSpec(JqExpression podSpecPath, Optional<JqExpression> metadataPath) implements SpecDefinition {}

    /** {@code fragmentedPodSpecDefinition}: the pod spec is scattered over the object. */
    record Fragmented(Map<Fragment, JqExpression> paths) implements SpecDefinition {
        public Fragmented {
            paths = Map.copyOf(paths);
        }
    }

    /** The fields of a fragmented pod spec, by their definition key. */
    enum Fragment {
        SCHEDULER_NAME("schedulerNamePath"),
        LABELS("labelsPath"),
        ANNOTATIONS("annotationsPath"),
        RESOURCES("resourcesPath"),
        RESOURCE_CLAIMS("resourceClaimsPath"),
        POD_AFFINITY("podAffinityPath"),
        NODE_AFFINITY("nodeAffinityPath"),
        CONTAINERS("containersPath"),
        CONTAINER("containerPath"),
        PRIORITY_CLASS_NAME("priorityClassNamePath"),
        IMAGE("imagePath");

        private final String key;

        Fragment(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }
    }
}
