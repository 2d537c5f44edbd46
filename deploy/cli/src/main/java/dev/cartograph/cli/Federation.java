package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Where a federated hub object runs and what its member cluster's agent last reported about it:
 * the broker's marks on the object, and the member's summary from the broker's REST API
 * ({@code GET /api/v1/workloads/UID}). Its pods run on the member, not on the hub, so this is what
 * {@code carto describe} shows for them there. Immutable.
 */
record Federation(HubMarks marks, Member member) {

    /** What the member's agent reported, or why that is not known here. */
    sealed interface Member permits Reported, Unknown, Refused {}

    /** The member's phase, pod count and GPUs as its agent last summarized them, and the broker's placement state. */
    record Reported(String phase, long pods, long gpus, String state) implements Member {}

    /** Not known, and why, in words for the user. */
    record Unknown(String why) implements Member {}

    /** The broker refused the caller (no token, a token it does not accept, or not allowed); {@code why} says what to do. */
    record Refused(String why) implements Member {}

    /**
     * Looks the object up in the broker at {@code broker} (no call when it is not placed, or no
     * broker is given). Never throws: a broker that cannot be reached is an {@link Unknown} saying so.
     */
    static Federation look(HubMarks marks, String uid, BrokerOptions broker) {
        if (marks.cluster().isEmpty()) {
            return new Federation(marks, new Unknown("the broker has not placed it"));
        }
        if (broker.url().isEmpty()) {
            return new Federation(
                    marks,
                    new Unknown("give --broker URL (or set " + BrokerOptions.URL_ENV + ") to see its agent's summary"));
        }
        try {
            return new Federation(marks, member(broker.api().get("api/v1/workloads/" + uid)));
        } catch (BrokerApi.Failure f) {
            if (f.exit == Carto.ACCESS_DENIED) {
                return new Federation(marks, new Refused(f.getMessage()));
            }
            if (f.exit == Carto.NOT_FOUND) {
                return new Federation(marks, new Unknown("the broker has no placement for uid " + uid));
            }
            return new Federation(marks, new Unknown("its agent's summary is unknown: " + f.getMessage()));
        }
    }

    private static Member member(JsonNode w) {
        if (!w.hasNonNull("phase")) {
            return new Unknown("its agent has not reported it yet (broker state "
                    + w.path("state").asText() + ")");
        }
        return new Reported(
                w.path("phase").asText(),
                w.path("pods").asLong(),
                w.path("gpus").asLong(),
                w.path("state").asText());
    }

    /** Why the broker refused the caller, when it did. */
    Optional<String> refused() {
        return member instanceof Refused r ? Optional.of(r.why()) : Optional.empty();
    }

    private String why() {
        return member instanceof Refused r ? r.why() : ((Unknown) member).why();
    }

    /** The lines {@code describe} prints after the workload's tree. */
    String table() {
        StringBuilder out = new StringBuilder();
        String phase = marks.phase().orElse("-");
        if (marks.cluster().isPresent()) {
            out.append("Placed:  on ")
                    .append(marks.cluster().get())
                    .append(marks.epoch().map(e -> ", epoch " + e).orElse(""))
                    .append(" (broker phase ")
                    .append(phase)
                    .append(")\n");
        } else {
            out.append("Broker:  ")
                    .append(phase)
                    .append(marks.reason().map(r -> ": " + r).orElse(""))
                    .append('\n');
        }
        out.append("Pods:    ");
        if (member instanceof Reported r) {
            out.append(r.pods())
                    .append(" on ")
                    .append(marks.cluster().orElse("?"))
                    .append(", phase ")
                    .append(r.phase())
                    .append(", ")
                    .append(r.gpus())
                    .append(" GPUs (its agent's last summary; broker state ")
                    .append(r.state())
                    .append(")\n");
        } else {
            String why = why();
            out.append(marks.cluster().map(c -> "on " + c + "; " + why).orElse("none: " + why))
                    .append('\n');
        }
        return out.toString();
    }

    /** Adds {@code broker} and {@code member} to describe's JSON for the object. */
    void addTo(ObjectNode view) {
        ObjectNode b = view.putObject("broker");
        marks.phase().ifPresent(p -> b.put("phase", p));
        marks.cluster().ifPresentOrElse(c -> b.put("cluster", c), () -> b.putNull("cluster"));
        marks.epoch().ifPresent(e -> b.put("epoch", e));
        marks.reason().ifPresent(r -> b.put("reason", r));
        ObjectNode m = view.putObject("member");
        if (member instanceof Reported r) {
            m.put("phase", r.phase())
                    .put("pods", r.pods())
                    .put("gpus", r.gpus())
                    .put("state", r.state());
        } else {
            m.put(member instanceof Refused ? "refused" : "unknown", why());
        }
    }
}
