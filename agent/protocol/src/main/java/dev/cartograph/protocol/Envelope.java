package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.function.Function;

/**
 * What every protocol record carries around its fields: {@code "schema"} and {@code "type"} on the way out,
 * and on the way in the check of both, with any failure to read turned into {@link Decoded.Failed}.
 * Unknown fields are ignored, so newer writers stay readable. Thread-safe.
 */
final class Envelope {
    static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Envelope() {}

    /** A new record of {@code type}, written at this build's {@link Wire#SCHEMA}. */
    static ObjectNode header(String type) {
        return JSON.createObjectNode().put("schema", Wire.SCHEMA).put("type", type);
    }

    static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + node.path("type"), e);
        }
    }

    /** Reads a record of {@code type} with {@code read}; never throws. */
    static <T> Decoded<T> decode(byte[] value, String type, Function<JsonNode, T> read) {
        if (value == null) {
            return new Decoded.Failed<>("empty record (a tombstone is not a " + type + " record)");
        }
        try {
            JsonNode o = JSON.readTree(value);
            Fields.requireSchema(o, type);
            return new Decoded.Ok<>(read.apply(o));
        } catch (IOException e) {
            return new Decoded.Failed<>(notJson(e));
        } catch (Fields.Bad | IllegalArgumentException | NullPointerException | ClassCastException e) {
            return new Decoded.Failed<>(e.getMessage());
        }
    }

    /** The reason a record that is not JSON is refused: the parser's first line. */
    static String notJson(IOException e) {
        String message = e.getMessage();
        if (message == null) {
            return "not JSON: unreadable";
        }
        int nl = message.indexOf('\n');
        return "not JSON: " + (nl < 0 ? message : message.substring(0, nl));
    }
}
