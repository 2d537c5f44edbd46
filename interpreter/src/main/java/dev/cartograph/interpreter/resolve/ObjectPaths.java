package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Pattern;

/** Formats jq paths ({@code ["spec", "replicas", 0]}) as fields: {@code spec.replicas[0]}. Pure. */
final class ObjectPaths {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ObjectPaths() {}

    static String format(JsonNode path) {
        StringBuilder out = new StringBuilder();
        for (JsonNode step : path) {
            if (step.isNumber()) {
                out.append('[').append(step.asText()).append(']');
            } else if (IDENTIFIER.matcher(step.asText()).matches()) {
                out.append(out.length() == 0 ? "" : ".").append(step.asText());
            } else {
                out.append("[\"")
                        .append(step.asText().replace("\\", "\\\\").replace("\"", "\\\""))
                        .append("\"]");
            }
        }
        return out.toString();
    }
}
