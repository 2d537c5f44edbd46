package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.ResourceList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The {@code placement} record: a {@link PlacementRecord}, the broker's durable decision. Thread-safe. */
final class PlacementCodec {
    private PlacementCodec() {}

    static byte[] encode(PlacementRecord p) {
        ObjectNode o = Envelope.header("placement");
        o.put("uid", p.uid());
        o.putObject("target")
                .put("namespace", p.target().namespace())
                .put("apiVersion", p.target().apiVersion())
                .put("kind", p.target().kind())
                .put("name", p.target().name());
        p.cluster().ifPresent(c -> o.put("cluster", c));
        o.put("epoch", p.epoch()).put("state", p.state().name()).put("reason", p.reason());
        ObjectNode reserved = o.putObject("reserved");
        new TreeMap<>(p.reserved()).forEach((node, amount) -> Fields.resources(reserved, node, amount));
        o.put("priority", p.priority())
                .put("submitted", p.submitted().toString())
                .put("at", p.at().toString())
                .put("term", p.term());
        if (!p.refusals().isEmpty()) {
            ObjectNode refusals = o.putObject("refusals");
            new TreeMap<>(p.refusals()).forEach(refusals::put);
        }
        if (!p.pin().none()) {
            ObjectNode pin = o.putObject("pin");
            ObjectNode selector = pin.putObject("nodeSelector");
            new TreeMap<>(p.pin().nodeSelector()).forEach(selector::put);
            var components = pin.putArray("components");
            new java.util.TreeSet<>(p.pin().components()).forEach(components::add);
            if (!p.pin().podAnnotations().isEmpty()) {
                ObjectNode pods = pin.putObject("podAnnotations");
                new TreeMap<>(p.pin().podAnnotations()).forEach(pods::put);
            }
            if (!p.pin().objectAnnotations().isEmpty()) {
                ObjectNode object = pin.putObject("objectAnnotations");
                new TreeMap<>(p.pin().objectAnnotations()).forEach(object::put);
            }
        }
        return Envelope.bytes(o);
    }

    static Decoded<PlacementRecord> decode(byte[] value) {
        return Envelope.decode(value, "placement", o -> {
            JsonNode t = o.path("target");
            PlacementRecord.State state;
            try {
                state = PlacementRecord.State.valueOf(Fields.text(o, "state"));
            } catch (IllegalArgumentException e) {
                throw new Fields.Bad("field 'state' is not one of " + Arrays.toString(PlacementRecord.State.values()));
            }
            Map<String, ResourceList> reserved = new LinkedHashMap<>();
            o.path("reserved")
                    .fieldNames()
                    .forEachRemaining(node -> reserved.put(node, Fields.resources(o.path("reserved"), node)));
            Map<String, String> refusals = new LinkedHashMap<>();
            JsonNode refused = o.path("refusals");
            if (!refused.isMissingNode() && !refused.isObject()) {
                throw new Fields.Bad("field 'refusals' is not an object of cluster names to reasons");
            }
            refused.fields()
                    .forEachRemaining(e -> refusals.put(e.getKey(), e.getValue().asText()));
            PlacementRecord.Pin pin = pin(o.path("pin"));
            return new PlacementRecord(
                    Fields.text(o, "uid"),
                    new PlacementRecord.Target(
                            Fields.textOr(t, "namespace", ""),
                            Fields.text(t, "apiVersion"),
                            Fields.text(t, "kind"),
                            Fields.text(t, "name")),
                    Optional.ofNullable(o.path("cluster").textValue()),
                    Fields.number(o, "epoch"),
                    state,
                    Fields.textOr(o, "reason", ""),
                    reserved,
                    (int) o.path("priority").asLong(0),
                    Fields.instant(o, "submitted"),
                    Fields.instant(o, "at"),
                    o.path("term").asLong(0),
                    refusals,
                    pin);
        });
    }

    private static PlacementRecord.Pin pin(JsonNode pin) {
        if (pin.isMissingNode()) {
            return PlacementRecord.Pin.NONE;
        }
        JsonNode components = pin.path("components");
        if (!pin.isObject() || !(components.isMissingNode() || components.isArray())) {
            throw new Fields.Bad("field 'pin' is not {nodeSelector: {label: value}, components: [names],"
                    + " podAnnotations: {}, objectAnnotations: {}}");
        }
        java.util.Set<String> names = new java.util.TreeSet<>();
        components.forEach(c -> names.add(c.asText()));
        return new PlacementRecord.Pin(
                strings(pin, "nodeSelector"), names, strings(pin, "podAnnotations"), strings(pin, "objectAnnotations"));
    }

    /** An optional object of strings inside the pin. */
    private static Map<String, String> strings(JsonNode pin, String field) {
        JsonNode o = pin.path(field);
        if (o.isMissingNode()) {
            return Map.of();
        }
        if (!o.isObject()) {
            throw new Fields.Bad("field 'pin." + field + "' is not an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        o.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
