package dev.cartograph.fairshare;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a {@code queues.cartograph.dev} object into a {@link QueueSpec}, or says which field is wrong and why. One
 * bad Queue is refused alone; nothing here throws for any input. Pure.
 */
public final class QueueSpecs {
    /** A DNS-1123 label: what a namespace or queue name may be. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private QueueSpecs() {}

    /** A Queue read, or refused with the field and the reason. */
    public sealed interface Read {}

    public record Valid(QueueSpec spec) implements Read {}

    /** {@code name} is the object's name when it has one ({@code ""} otherwise). */
    public record Invalid(String name, String field, String reason) implements Read {
        /** {@code spec.weight: must be a number greater than 0, not "-1"}. */
        public String message() {
            return field + ": " + reason;
        }
    }

    public static Read read(JsonNode queue) {
        String name = queue.path("metadata").path("name").asText("");
        if (!NAME.matcher(name).matches()) {
            return new Invalid(
                    name, "metadata.name", "must be a DNS label (lower case, digits, '-'), not \"" + name + "\"");
        }
        JsonNode spec = queue.path("spec");
        if (!spec.isObject()) {
            return new Invalid(name, "spec", "missing: a Queue needs spec.namespaces or spec.namespaceSelector");
        }
        List<String> namespaces = new ArrayList<>();
        JsonNode list = spec.path("namespaces");
        if (!list.isMissingNode() && !list.isNull()) {
            if (!list.isArray()) {
                return new Invalid(name, "spec.namespaces", "must be a list of namespace names");
            }
            for (int i = 0; i < list.size(); i++) {
                String ns = list.get(i).isTextual() ? list.get(i).asText() : "";
                if (!NAME.matcher(ns).matches()) {
                    return new Invalid(name, "spec.namespaces[" + i + "]", "not a namespace name: " + list.get(i));
                }
                namespaces.add(ns);
            }
        }
        Map<String, String> selector = new LinkedHashMap<>();
        JsonNode sel = spec.path("namespaceSelector");
        if (!sel.isMissingNode() && !sel.isNull()) {
            JsonNode labels = sel.path("matchLabels");
            if (!labels.isObject() || labels.isEmpty() || sel.size() != 1) {
                return new Invalid(
                        name,
                        "spec.namespaceSelector",
                        "must be {matchLabels: {key: value, ...}} with at least one label");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isTextual()) {
                    return new Invalid(name, "spec.namespaceSelector.matchLabels." + e.getKey(), "must be a string");
                }
                selector.put(e.getKey(), e.getValue().asText());
            }
        }
        if (!namespaces.isEmpty() && !selector.isEmpty()) {
            return new Invalid(
                    name, "spec.namespaceSelector", "give spec.namespaces or spec.namespaceSelector, not both");
        }
        Optional<String> parent = Optional.empty();
        JsonNode p = spec.path("parent");
        if (!p.isMissingNode() && !p.isNull()) {
            if (!p.isTextual() || !NAME.matcher(p.asText()).matches()) {
                return new Invalid(name, "spec.parent", "not a queue name: " + p);
            }
            if (p.asText().equals(name)) {
                return new Invalid(name, "spec.parent", "a queue cannot be its own parent");
            }
            parent = Optional.of(p.asText());
        }
        double weight = 1;
        JsonNode w = spec.path("weight");
        if (!w.isMissingNode() && !w.isNull()) {
            Optional<Double> parsed = number(w);
            if (parsed.isEmpty() || !(parsed.get() > 0) || parsed.get().isInfinite()) {
                return new Invalid(name, "spec.weight", "must be a number greater than 0, not " + w);
            }
            weight = parsed.get();
        }
        Map<String, Long> nominal = new LinkedHashMap<>();
        Optional<Invalid> bad = gpus(name, spec.path("quota"), "spec.quota", nominal);
        if (bad.isPresent()) {
            return bad.get();
        }
        Map<String, Long> borrowing = new LinkedHashMap<>();
        bad = gpus(name, spec.path("borrowingLimit"), "spec.borrowingLimit", borrowing);
        if (bad.isPresent()) {
            return bad.get();
        }
        QueueSpec.Preemption preemption = QueueSpec.Preemption.RECLAIM_ONLY;
        JsonNode pre = spec.path("preemption");
        if (!pre.isMissingNode() && !pre.isNull()) {
            Optional<QueueSpec.Preemption> parsed =
                    pre.isTextual() ? QueueSpec.Preemption.of(pre.asText()) : Optional.empty();
            if (parsed.isEmpty()) {
                return new Invalid(name, "spec.preemption", "must be Never, ReclaimOnly or LowerPriority, not " + pre);
            }
            preemption = parsed.get();
        }
        return new Valid(new QueueSpec(name, namespaces, selector, parent, weight, nominal, borrowing, preemption));
    }

    /** Reads {@code {gpus: {MODEL: N}}} under {@code field} into {@code out}. */
    private static Optional<Invalid> gpus(String name, JsonNode node, String field, Map<String, Long> out) {
        if (node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            return Optional.of(new Invalid(name, field, "must be an object with gpus: {MODEL: count}"));
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!key.equals("gpus")) {
                return Optional.of(new Invalid(
                        name, field + "." + key, "not supported: quota is counted in GPUs per model (gpus)"));
            }
        }
        JsonNode gpus = node.path("gpus");
        if (!gpus.isObject()) {
            return Optional.of(new Invalid(name, field + ".gpus", "must map GPU models to counts"));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = gpus.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Optional<Double> n = number(e.getValue());
            if (n.isEmpty() || n.get() < 0 || n.get() != Math.floor(n.get()) || n.get() > 1e12) {
                return Optional.of(new Invalid(
                        name,
                        field + ".gpus." + e.getKey(),
                        "must be a whole number of GPUs, 0 or more, not " + e.getValue()));
            }
            out.put(e.getKey(), n.get().longValue());
        }
        return Optional.empty();
    }

    /** A JSON number, or a string holding a plain decimal number. */
    private static Optional<Double> number(JsonNode n) {
        if (n.isNumber()) {
            return Optional.of(n.asDouble());
        }
        if (n.isTextual() && n.asText().matches("[0-9]+(\\.[0-9]+)?")) {
            return Optional.of(Double.parseDouble(n.asText()));
        }
        return Optional.empty();
    }
}
