package dev.cartograph.mock.admission;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One refusal a member's validating webhook makes: writes of {@code kind} objects (by kind name, any API group) in
 * {@code namespace} ({@value #ANY_NAMESPACE}: every namespace) for the {@code operations} listed are denied with
 * {@code message}, in the name of {@code webhook}. Immutable; validated.
 */
public record AdmissionRule(String kind, String namespace, String message, String webhook, Set<Operation> operations) {
    public static final String ANY_NAMESPACE = "*";

    /** The webhook a rule speaks for when the profile names none. */
    public static final String DEFAULT_WEBHOOK = "validate.policy.cartograph.dev";

    /** The operations a validating webhook rule names. */
    public enum Operation {
        CREATE,
        UPDATE
    }

    public AdmissionRule {
        requireText(kind, "kind");
        requireText(namespace, "namespace");
        requireText(message, "message");
        requireText(webhook, "webhook");
        Objects.requireNonNull(operations, "operations");
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("operations must name CREATE, UPDATE or both");
        }
        operations = Set.copyOf(operations);
    }

    /** Denies every create and update of {@code kind} in every namespace, in the name of {@value #DEFAULT_WEBHOOK}. */
    public static AdmissionRule denying(String kind, String message) {
        return new AdmissionRule(kind, ANY_NAMESPACE, message, DEFAULT_WEBHOOK, EnumSet.allOf(Operation.class));
    }

    public AdmissionRule inNamespace(String newNamespace) {
        return new AdmissionRule(kind, newNamespace, message, webhook, operations);
    }

    public AdmissionRule byWebhook(String name) {
        return new AdmissionRule(kind, namespace, message, name, operations);
    }

    public AdmissionRule on(Set<Operation> newOperations) {
        return new AdmissionRule(kind, namespace, message, webhook, newOperations);
    }

    /** Whether this rule refuses {@code operation} on a {@code kind} object in {@code objectNamespace} ("" if cluster-scoped). */
    public boolean matches(Operation operation, String objectKind, String objectNamespace) {
        return operations.contains(operation)
                && kind.equals(objectKind)
                && (ANY_NAMESPACE.equals(namespace) || namespace.equals(objectNamespace));
    }

    private static void requireText(String value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
    }
}
