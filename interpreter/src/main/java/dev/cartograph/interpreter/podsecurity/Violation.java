package dev.cartograph.interpreter.podsecurity;

import java.util.Objects;

/**
 * One thing a pod template does that its namespace's pod security level does not allow. Immutable.
 *
 * @param object the object, as errors name it ({@code PyTorchJob ml/train})
 * @param field  where, in the object
 *               ({@code spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].securityContext.privileged});
 *               for a pod template a definition assembles from fragments, the component and instance it
 *               belongs to followed by the field in that template
 * @param check  the upstream Pod Security Standards check it fails ({@code privileged}, {@code hostNamespaces},
 *               {@code runAsNonRoot}…), or {@code nodeName}, Cartograph's own
 * @param reason what is wrong and what is allowed, in plain words
 */
public record Violation(String object, String field, String check, String reason) {
    public Violation {
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code field: reason}, as one line of a refusal. */
    @Override
    public String toString() {
        return field.isEmpty() ? reason : field + ": " + reason;
    }
}
