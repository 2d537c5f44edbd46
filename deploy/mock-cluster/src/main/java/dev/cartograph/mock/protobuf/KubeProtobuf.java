package dev.cartograph.mock.protobuf;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * Reads the Kubernetes protobuf encoding ({@code application/vnd.kubernetes.protobuf}: the bytes
 * {@code k8s\0}, then a {@code runtime.Unknown} wrapping the object) that kubectl uses when it builds
 * a built-in object itself, for the kinds {@code kubectl create namespace|configmap|secret|serviceaccount}
 * make (see {@link CoreMessages}), into the JSON a client would have sent. Everything else is
 * {@link Unsupported}, with a reason, never a guess. Pure; thread-safe.
 *
 * <pre>{@code
 * switch (KubeProtobuf.decode(body)) {
 *     case KubeProtobuf.Json json -> store(json.object());
 *     case KubeProtobuf.Unsupported no -> refuse(415, no.reason());
 * }
 * }</pre>
 */
public final class KubeProtobuf {
    /** The content type kubectl sends protobuf bodies with. */
    public static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";

    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private KubeProtobuf() {}

    /** What {@link #decode} made of a body. */
    public sealed interface Decoded permits Json, Unsupported {}

    /** The object as JSON, with {@code apiVersion} and {@code kind}. */
    public record Json(ObjectNode object) implements Decoded {}

    /**
     * Not read.
     *
     * @param type   {@code apiVersion kind} ({@code apps/v1 Deployment}) when the envelope said, else empty
     * @param reason why, for a user
     */
    public record Unsupported(Optional<String> type, String reason) implements Decoded {}

    public static Decoded decode(byte[] body) {
        if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return new Unsupported(
                    Optional.empty(), "the body does not start with the Kubernetes protobuf prefix k8s\\0");
        }
        Envelope envelope;
        try {
            envelope = Envelope.read(new WireReader(Arrays.copyOfRange(body, MAGIC.length, body.length)));
        } catch (WireReader.MalformedProtobufException e) {
            return new Unsupported(Optional.empty(), "the protobuf envelope is malformed: " + e.getMessage());
        }
        String type = envelope.apiVersion() + " " + envelope.kind();
        if (!envelope.contentEncoding().isEmpty()) {
            return new Unsupported(
                    Optional.of(type), "content encoding " + envelope.contentEncoding() + " is not read");
        }
        Optional<Message> message = CoreMessages.of(envelope.apiVersion(), envelope.kind());
        if (message.isEmpty()) {
            return new Unsupported(
                    Optional.of(type),
                    "the mock reads protobuf only for v1 Namespace, ConfigMap, Secret " + "and ServiceAccount");
        }
        try {
            ObjectNode object =
                    NODES.objectNode().put("apiVersion", envelope.apiVersion()).put("kind", envelope.kind());
            object.setAll(read(envelope.raw(), message.get()));
            return new Json(object);
        } catch (UnknownFieldException | WireReader.MalformedProtobufException e) {
            return new Unsupported(Optional.of(type), e.getMessage());
        }
    }

    private static ObjectNode read(byte[] bytes, Message message) {
        ObjectNode json = NODES.objectNode();
        WireReader reader = new WireReader(bytes);
        while (!reader.atEnd()) {
            long tag = reader.varint();
            int number = (int) (tag >>> 3);
            int wireType = (int) (tag & 7);
            Field field = message.field(number)
                    .orElseThrow(() -> new UnknownFieldException(
                            "field " + number + " of " + message.name() + " is not read by the mock"));
            int expected = field.type() == Field.Type.INT64 || field.type() == Field.Type.BOOL
                    ? WireReader.VARINT
                    : WireReader.LENGTH_DELIMITED;
            if (wireType != expected) {
                throw new UnknownFieldException("field " + field.json() + " of " + message.name() + " has wire type "
                        + wireType + ", expected " + expected);
            }
            readField(reader, field, json);
        }
        return json;
    }

    private static void readField(WireReader reader, Field field, ObjectNode json) {
        switch (field.type()) {
            case STRING -> {
                String value = utf8(reader.lengthDelimited());
                if (!value.isEmpty() || field.keepZero()) {
                    json.put(field.json(), value);
                }
            }
            case BYTES -> json.put(field.json(), Base64.getEncoder().encodeToString(reader.lengthDelimited()));
            case INT64 -> {
                long value = reader.varint();
                if (value != 0 || field.keepZero()) {
                    json.put(field.json(), value);
                }
            }
            case BOOL -> {
                boolean value = reader.varint() != 0;
                if (value || field.keepZero()) {
                    json.put(field.json(), value);
                }
            }
            case TIME -> time(reader.lengthDelimited()).ifPresent(t -> json.put(field.json(), t));
            case MESSAGE -> {
                ObjectNode nested = read(reader.lengthDelimited(), field.nested());
                if (!nested.isEmpty()) {
                    json.set(field.json(), nested);
                }
            }
            case STRING_MAP, BYTES_MAP -> mapEntry(reader.lengthDelimited(), field, json);
            case STRINGS -> array(json, field).add(utf8(reader.lengthDelimited()));
            case MESSAGES -> array(json, field).add(read(reader.lengthDelimited(), field.nested()));
        }
    }

    private static void mapEntry(byte[] entry, Field field, ObjectNode json) {
        WireReader reader = new WireReader(entry);
        String key = "";
        byte[] value = new byte[0];
        while (!reader.atEnd()) {
            long tag = reader.varint();
            if ((tag & 7) != WireReader.LENGTH_DELIMITED || (tag >>> 3) > 2) {
                throw new UnknownFieldException("a map entry of " + field.json() + " is not a string key and value");
            }
            byte[] bytes = reader.lengthDelimited();
            if ((tag >>> 3) == 1) {
                key = utf8(bytes);
            } else {
                value = bytes;
            }
        }
        ObjectNode map = json.has(field.json()) ? (ObjectNode) json.get(field.json()) : json.putObject(field.json());
        map.put(key, field.type() == Field.Type.BYTES_MAP ? Base64.getEncoder().encodeToString(value) : utf8(value));
    }

    /** {@code meta/v1 Time} in RFC 3339 seconds, as its JSON form; empty for the zero time. */
    private static Optional<String> time(byte[] bytes) {
        WireReader reader = new WireReader(bytes);
        long seconds = 0;
        while (!reader.atEnd()) {
            long tag = reader.varint();
            long value = reader.varint();
            if ((tag >>> 3) == 1) {
                seconds = value;
            }
        }
        return seconds == 0
                ? Optional.empty()
                : Optional.of(Instant.ofEpochSecond(seconds).toString());
    }

    private static ArrayNode array(ObjectNode json, Field field) {
        return json.has(field.json()) ? (ArrayNode) json.get(field.json()) : json.putArray(field.json());
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A field the decoder does not know: the object is refused rather than stored without it. */
    private static final class UnknownFieldException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownFieldException(String message) {
            super(message);
        }
    }
}
