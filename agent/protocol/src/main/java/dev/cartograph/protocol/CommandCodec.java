package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Arrays;

/**
 * The broker's commands ({@code apply}, {@code delete}) and the agent's answers ({@code result}). A command
 * whose type is not {@code apply} is read as a {@code delete}, so a wrong type is refused by its header
 * check. Thread-safe.
 */
final class CommandCodec {
    private CommandCodec() {}

    static byte[] encode(Command c) {
        ObjectNode o = Envelope.header(c instanceof Command.Apply ? "apply" : "delete");
        o.put("placementId", c.placementId())
                .put("epoch", c.epoch())
                .put("issued", c.issued().toString())
                .put("term", c.term());
        if (c instanceof Command.Apply apply) {
            o.set("manifest", apply.manifest());
            if (!apply.dependencies().isEmpty()) {
                apply.dependencies().forEach(o.putArray("dependencies")::add);
            }
        } else {
            o.put("copy", ((Command.Delete) c).copy().kafkaKey());
        }
        return Envelope.bytes(o);
    }

    static Decoded<Command> decode(byte[] value) {
        try {
            JsonNode o = Envelope.JSON.readTree(value);
            String type = o.path("type").asText("");
            if (type.equals("apply")) {
                return Envelope.decode(value, "apply", n -> {
                    if (!n.path("manifest").isObject()) {
                        throw new Fields.Bad("field 'manifest' is missing or not an object");
                    }
                    JsonNode deps = n.path("dependencies");
                    if (!deps.isMissingNode() && !deps.isArray()) {
                        throw new Fields.Bad("field 'dependencies' is not a list");
                    }
                    java.util.List<JsonNode> dependencies = new java.util.ArrayList<>();
                    for (JsonNode d : deps) {
                        if (!d.isObject()) {
                            throw new Fields.Bad("field 'dependencies' holds something that is not an object");
                        }
                        dependencies.add(d);
                    }
                    return new Command.Apply(
                            Fields.text(n, "placementId"),
                            Fields.number(n, "epoch"),
                            Fields.instant(n, "issued"),
                            n.get("manifest"),
                            dependencies,
                            term(n));
                });
            }
            return Envelope.decode(
                    value,
                    "delete",
                    n -> new Command.Delete(
                            Fields.text(n, "placementId"),
                            Fields.number(n, "epoch"),
                            Fields.instant(n, "issued"),
                            WorkloadKey.parse(Fields.text(n, "copy"))
                                    .orElseThrow(() ->
                                            new Fields.Bad("field 'copy' is not cluster/namespace/group/kind/name")),
                            term(n)));
        } catch (IOException e) {
            return new Decoded.Failed<>(Envelope.notJson(e));
        }
    }

    /** The writer's leader term: 0 when absent (a broker that predates the field). */
    private static long term(JsonNode n) {
        if (!n.has("term")) {
            return 0;
        }
        long term = Fields.number(n, "term");
        if (term < 0) {
            throw new Fields.Bad("field 'term' is negative: " + term);
        }
        return term;
    }

    static byte[] encode(CommandResult r) {
        ObjectNode o = Envelope.header("result");
        o.put("cluster", r.cluster())
                .put("placementId", r.placementId())
                .put("epoch", r.epoch())
                .put("command", r.command())
                .put("outcome", r.outcome().name())
                .put("reason", r.reason())
                .put("at", r.at().toString());
        return Envelope.bytes(o);
    }

    static Decoded<CommandResult> decodeResult(byte[] value) {
        return Envelope.decode(value, "result", o -> {
            CommandResult.Outcome outcome;
            try {
                outcome = CommandResult.Outcome.valueOf(Fields.text(o, "outcome"));
            } catch (IllegalArgumentException e) {
                throw new Fields.Bad(
                        "field 'outcome' is not one of " + Arrays.toString(CommandResult.Outcome.values()));
            }
            return new CommandResult(
                    Fields.text(o, "cluster"),
                    Fields.text(o, "placementId"),
                    Fields.number(o, "epoch"),
                    Fields.text(o, "command"),
                    outcome,
                    Fields.textOr(o, "reason", ""),
                    Fields.instant(o, "at"));
        });
    }
}
