package dev.cartograph.mock.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.mock.admission.AdmissionRule;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads a cluster's {@code admission} list, reporting problems through its {@link ProfileParser}. Not thread-safe. */
final class AdmissionParser {
    private static final Set<String> ADMISSION_FIELDS = Set.of("kind", "namespace", "message", "webhook", "operations");
    private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]*");
    private static final Pattern NAMESPACE = Pattern.compile("\\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern WEBHOOK =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+");

    private final ProfileParser parser;

    AdmissionParser(ProfileParser parser) {
        this.parser = parser;
    }

    List<AdmissionRule> rules(JsonNode node, String at) {
        if (node.isMissingNode() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            parser.problem(at, "must be a list of {kind, namespace, message, webhook, operations}");
            return List.of();
        }
        List<AdmissionRule> rules = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            admissionRule(node.get(i), at + "[" + i + "]").ifPresent(rules::add);
        }
        return rules;
    }

    private Optional<AdmissionRule> admissionRule(JsonNode rule, String at) {
        if (!rule.isObject()) {
            parser.problem(at, "must be a mapping with kind and message");
            return Optional.empty();
        }
        int before = parser.problemCount();
        parser.unknownFields(rule, ADMISSION_FIELDS, at + ".");
        String kind = text(rule, "kind", at, KIND, "a kind name such as PyTorchJob", null);
        String namespace =
                text(rule, "namespace", at, NAMESPACE, "\"*\" or a namespace name", AdmissionRule.ANY_NAMESPACE);
        String webhook = text(
                rule,
                "webhook",
                at,
                WEBHOOK,
                "a fully qualified webhook name such as deny.example.com",
                AdmissionRule.DEFAULT_WEBHOOK);
        JsonNode message = rule.path("message");
        if (!message.isTextual() || message.asText().isBlank()) {
            parser.problem(
                    at + ".message", "is required: what the webhook answers, e.g. PyTorchJobs are not allowed here");
        }
        Set<AdmissionRule.Operation> operations = operations(rule.path("operations"), at + ".operations");
        return parser.problemCount() > before
                ? Optional.empty()
                : Optional.of(new AdmissionRule(kind, namespace, message.asText(), webhook, operations));
    }

    private Set<AdmissionRule.Operation> operations(JsonNode node, String at) {
        if (node.isMissingNode() || node.isNull()) {
            return EnumSet.allOf(AdmissionRule.Operation.class);
        }
        Set<AdmissionRule.Operation> operations = EnumSet.noneOf(AdmissionRule.Operation.class);
        if (!node.isArray() || node.isEmpty()) {
            parser.problem(at, "must be a non-empty list of CREATE and UPDATE");
            return operations;
        }
        for (JsonNode op : node) {
            try {
                operations.add(AdmissionRule.Operation.valueOf(op.asText("")));
            } catch (IllegalArgumentException e) {
                parser.problem(at, "must list only CREATE and UPDATE, had " + op);
            }
        }
        return operations;
    }

    /** A string field matching {@code pattern}; {@code fallback} when absent, or a problem when there is none. */
    private String text(JsonNode node, String field, String at, Pattern pattern, String what, String fallback) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() && fallback != null) {
            return fallback;
        }
        if (!value.isTextual() || !pattern.matcher(value.asText()).matches()) {
            parser.problem(
                    at + "." + field, "must be " + what + ", was " + (value.isMissingNode() ? "missing" : value));
            return fallback == null ? "" : fallback;
        }
        return value.asText();
    }
}
