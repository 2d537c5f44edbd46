package dev.cartograph.broker.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.usage.Hours;
import dev.cartograph.usage.UsageKey;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code P.usage} record of one UTC hour (docs/protocol.md): key the hour's start (ISO instant), value its running
 * totals, {@code {"schema":1,"type":"usage","hour":…,"gpuSeconds":[{"queue":…,"namespace":…,"gpuModel":…,
 * "gpuSeconds":9600.0},…]}}; a tombstone when the hour is past the retention. GPU-seconds are written with
 * millisecond precision. Thread-safe.
 */
public final class UsageRecords {
    public static final int SCHEMA = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private UsageRecords() {}

    /** What one record says. */
    public sealed interface Read {}

    /** The hour's totals, GPU-milliseconds per key. */
    public record Hour(Instant hour, Map<UsageKey, Long> gpuMillis) implements Read {}

    /** A tombstone: the hour is gone. */
    public record Gone(Instant hour) implements Read {}

    /** Not readable; {@code reason} names the field. */
    public record Failed(String reason) implements Read {}

    public static String key(Instant hour) {
        return hour.toString();
    }

    public static byte[] encode(Instant hour, Map<UsageKey, Long> gpuMillis) {
        ObjectNode root = JSON.createObjectNode()
                .put("schema", SCHEMA)
                .put("type", "usage")
                .put("hour", hour.toString());
        ArrayNode rows = root.putArray("gpuSeconds");
        new TreeMap<>(gpuMillis)
                .forEach((k, ms) -> rows.addObject()
                        .put("queue", k.queue())
                        .put("namespace", k.namespace())
                        .put("gpuModel", k.gpuModel())
                        .put("gpuSeconds", ms / 1_000.0));
        return root.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    public static Read decode(String key, byte[] value) {
        Instant hour;
        try {
            hour = Instant.parse(key);
        } catch (DateTimeParseException e) {
            return new Failed("key '" + key + "' is not an ISO instant");
        }
        if (!Hours.bucket(hour).equals(hour)) {
            return new Failed("key " + key + " does not start a UTC hour");
        }
        if (value == null) {
            return new Gone(hour);
        }
        try {
            JsonNode root = JSON.readTree(value);
            if (root.path("schema").asInt(0) != SCHEMA
                    || !"usage".equals(root.path("type").asText())) {
                return new Failed(key + ": schema " + root.path("schema") + " type " + root.path("type")
                        + " is not usage schema " + SCHEMA);
            }
            Map<UsageKey, Long> out = new TreeMap<>();
            int i = 0;
            for (JsonNode row : root.path("gpuSeconds")) {
                double s = row.path("gpuSeconds").asDouble(-1);
                if (!row.path("gpuSeconds").isNumber() || s < 0 || !Double.isFinite(s)) {
                    return new Failed(key + ": gpuSeconds[" + i + "].gpuSeconds is not a number >= 0");
                }
                UsageKey k = new UsageKey(
                        row.path("queue").asText(""),
                        row.path("namespace").asText(""),
                        row.path("gpuModel").asText(""));
                out.merge(k, Math.round(s * 1_000), Long::sum);
                i++;
            }
            return new Hour(hour, out);
        } catch (java.io.IOException e) {
            return new Failed(key + ": not JSON: " + e.getMessage());
        }
    }
}
