package dev.cartograph.interpreter.problem;

import java.util.Objects;

/**
 * One thing wrong (or worth a warning) about a definition or an object, named by where it is.
 *
 * @param subject  what the problem is about: a definition name, or {@code Kind namespace/name}
 * @param field    the field path inside it, e.g. {@code spec.structureDefinition.childComponents[1].scaleDefinition.replicasPath}
 * @param message  what is wrong, in words a user can act on
 * @param severity whether it stops the definition or object from being used
 */
public record Problem(String subject, String field, String message, Severity severity) {

    public enum Severity {
        ERROR,
        WARNING
    }

    public Problem {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(severity, "severity");
    }

    public static Problem error(String subject, String field, String message) {
        return new Problem(subject, field, message, Severity.ERROR);
    }

    public static Problem warning(String subject, String field, String message) {
        return new Problem(subject, field, message, Severity.WARNING);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    @Override
    public String toString() {
        String where = field.isEmpty() ? subject : subject + ": " + field;
        return (severity == Severity.WARNING ? "warning: " : "") + where + ": " + message;
    }
}
