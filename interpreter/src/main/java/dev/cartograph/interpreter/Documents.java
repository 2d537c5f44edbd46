package dev.cartograph.interpreter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads YAML or JSON text into object trees: several documents separated by {@code ---}, and
 * {@code kind: List} wrappers (as {@code kubectl get -o yaml} prints) are unwrapped. Thread-safe.
 */
public final class Documents {
    private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private Documents() {
    }

    /** Every object in the stream; blank documents are skipped. */
    public static List<JsonNode> read(InputStream in) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(in)) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                if (doc == null || doc.isNull() || doc.isMissingNode()) {
                    continue;
                }
                if (doc.isObject() && doc.path("kind").asText("").endsWith("List") && doc.path("items").isArray()) {
                    doc.get("items").forEach(out::add);
                } else {
                    out.add(doc);
                }
            }
        }
        return out;
    }

    public static ObjectMapper json() {
        return JSON;
    }

    public static YAMLMapper yaml() {
        return YAML;
    }
}
