package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.jq.JqExpression;
import java.util.List;
import java.util.Optional;

/**
 * A gang: pods that must be scheduled together. Both Workload Map forms normalize to this:
 * {@code podGroups[]} (members grouped by pod keys) and {@code podGroup} (subgroups by component,
 * no keys). Immutable.
 */
public record PodGroupDefinition(String name, List<Member> members, Optional<JsonNode> topology) {

    public PodGroupDefinition {
        members = List.copyOf(members);
    }

    /**
     * A component whose pods belong to the group; pods with equal {@code groupByKeyPaths} values
     * form one gang; {@code filters} (jq on the pod) must all be true.
     */
    public record Member(
            String componentName,
            List<JqExpression> groupByKeyPaths,
            List<JqExpression> filters,
            Optional<JsonNode> topology) {
        public Member {
            groupByKeyPaths = List.copyOf(groupByKeyPaths);
            filters = List.copyOf(filters);
        }
    }
}
