package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** Cell values as JSON nodes. Pure; thread-safe. */
final class Cells {
    static final JsonNodeFactory FACTORY = JsonNodeFactory.instance;
    static final String NONE = "<none>";

    private Cells() {}

    static JsonNode text(String value) {
        return FACTORY.textNode(value);
    }

    /** The text at {@code node}, or {@code <none>} when it is missing or empty (as the built-in printers show). */
    static JsonNode textOrNone(JsonNode node) {
        return text(
                node == null
                                || node.isMissingNode()
                                || node.isNull()
                                || node.asText().isEmpty()
                        ? NONE
                        : node.asText());
    }

    static JsonNode integer(long value) {
        return FACTORY.numberNode(value);
    }

    static JsonNode none() {
        return FACTORY.nullNode();
    }
}
