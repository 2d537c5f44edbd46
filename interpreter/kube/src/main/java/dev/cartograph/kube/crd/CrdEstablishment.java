package dev.cartograph.kube.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import java.util.List;
import java.util.Optional;

/**
 * Whether the API server serves a CRD's kind yet, from the conditions it sets on the CRD: {@code Established=True}
 * once the kind is served (a create of an object of that kind is accepted), {@code NamesAccepted=False} when its
 * names clash with another CRD's (it will not be established until that is resolved). Pure.
 */
public sealed interface CrdEstablishment {
    /** The kind is served. */
    record Established() implements CrdEstablishment {}

    /** Not yet; {@code detail} is what the conditions say so far (empty when the server set none). */
    record Pending(String detail) implements CrdEstablishment {}

    /** The server will not establish it as it is: its names are not accepted ({@code reason} is the server's). */
    record NamesRefused(String reason) implements CrdEstablishment {}

    /** What {@code crd}'s status says (a CRD the server has not looked at yet is pending). */
    static CrdEstablishment of(CustomResourceDefinition crd) {
        List<CustomResourceDefinitionCondition> conditions =
                crd.getStatus() == null || crd.getStatus().getConditions() == null
                        ? List.of()
                        : crd.getStatus().getConditions();
        if (condition(conditions, "Established")
                .filter(c -> "True".equals(c.getStatus()))
                .isPresent()) {
            return new Established();
        }
        Optional<CustomResourceDefinitionCondition> names = condition(conditions, "NamesAccepted");
        if (names.filter(c -> "False".equals(c.getStatus())).isPresent()) {
            return new NamesRefused(text(names.get()));
        }
        return new Pending(conditions.stream()
                .map(c -> c.getType() + "=" + c.getStatus() + (text(c).isEmpty() ? "" : " (" + text(c) + ")"))
                .reduce((a, b) -> a + ", " + b)
                .orElse(""));
    }

    private static Optional<CustomResourceDefinitionCondition> condition(
            List<CustomResourceDefinitionCondition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private static String text(CustomResourceDefinitionCondition c) {
        String reason = c.getReason() == null ? "" : c.getReason();
        String message = c.getMessage() == null ? "" : c.getMessage();
        return message.isEmpty() ? reason : reason.isEmpty() ? message : reason + ": " + message;
    }
}
