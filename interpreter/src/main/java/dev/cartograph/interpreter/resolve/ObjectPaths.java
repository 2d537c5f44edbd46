package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;

/** Formats jq paths ({@code ["spec", "replicas", 0]}) as fields: {@code spec.replicas[0]}. Pure. */
final class ObjectPaths {
    private ObjectPaths() {}

    static String format(JsonNode path) {
        StringBuilder out = new StringBuilder();
        for (JsonNode step : path) {
            if (step.isNumber()) {
                out.append('[').append(step.asText()).append(']');
            } else if (isIdentifier(step.asText())) {
                out.append(out.length() == 0 ? "" : ".").append(step.asText());
            } else {
                out.append("[\"")
                        .append(step.asText().replace("\\", "\\\\").replace("\"", "\\\""))
                        .append("\"]");
            }
        }
        return out.toString();
    }

    /** {@code [A-Za-z_][A-Za-z0-9_]*}: a key jq can write as {@code .key}. */
    static boolean isIdentifier(String key) {
        if (key.isEmpty()) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char ch = key.charAt(i);
            boolean letter = ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch == '_';
            if (!letter && (i == 0 || ch < '0' || ch > '9')) {
                return false;
            }
        }
        return true;
    }
}
