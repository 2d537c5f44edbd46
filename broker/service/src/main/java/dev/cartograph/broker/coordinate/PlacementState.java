package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Everything the broker knows of one placement, keyed by its hub object's uid, in one value: its durable record, the
 * hub object as last seen and what it asks, the last decision, what went to the member and when, what was mirrored
 * and shown on the hub, the answers it is remembered by (a spec that failed or was refused, a cluster to avoid), the
 * stale copies fenced, and what failover has watched. The {@link PlacementStore} keeps one per uid and replaces it on
 * every change; forgetting a placement is one removal there. Immutable.
 *
 * @param record      the placement record, once durable (or read back from the placements topic)
 * @param object      the hub object as last seen (kept until it is gone from the hub)
 * @param asked       what the object asks, as last interpreted ({@link DemandCache})
 * @param decision    the latest decision (with the per-cluster explanation)
 * @param forwarded   the spec last sent to the member, and what it asked then
 * @param sent        when the last command at the placement's epoch went out
 * @param avoided     a cluster that could not start it: its next placement goes elsewhere first
 * @param failedSpec  the spec it had when it failed (a change of it submits it again)
 * @param refusedSpec the spec of a change not forwarded (answered once per spec)
 * @param shown       the waiting reason last shown on the hub object
 * @param mirrored    the member's status and phase last written on the hub object
 * @param fenced      stale copies of it a Delete was sent to
 * @param watch       what failover has watched of its copy
 */
record PlacementState(
        String uid,
        Optional<PlacementRecord> record,
        Optional<HubObject> object,
        Optional<DemandCache.Interpreted> asked,
        Optional<Decision> decision,
        Optional<Forwarded> forwarded,
        Optional<Sent> sent,
        Optional<String> avoided,
        Optional<JsonNode> failedSpec,
        Optional<JsonNode> refusedSpec,
        Optional<Written> shown,
        Mirrored mirrored,
        Set<Fenced> fenced,
        Watch watch) {

    /** What went to the member: the hub object's spec and the demand it made (empty when not known, e.g. after a restart). */
    record Forwarded(JsonNode spec, Optional<DemandCache.Asked> asked) {}

    /**
     * The last command sent for a placement: at which epoch, when, and its place among every command this instance
     * sent (agents read their commands in that order).
     */
    record Sent(long epoch, Instant at, long order) {}

    /** A value written on the hub object, and when. */
    record Written(String value, Instant at) {}

    /** The member copy's status and phase as last written on the hub object. */
    record Mirrored(Optional<Written> status, Optional<Written> phase) {
        static final Mirrored NONE = new Mirrored(Optional.empty(), Optional.empty());
    }

    /** A stale copy fenced: on this cluster, with a Delete at this epoch. */
    record Fenced(String cluster, long epoch) {}

    /**
     * What failover has watched of the placement's copy: the epoch at which a running gang on a lost cluster was
     * reported (once per epoch), since when its cluster's summaries stopped listing its copy, and whether they ever
     * listed it (only a copy once seen can be missed).
     */
    record Watch(Optional<Long> lostReported, Optional<Instant> unlistedSince, boolean listedOnce) {
        static final Watch NONE = new Watch(Optional.empty(), Optional.empty(), false);
    }

    PlacementState {
        Objects.requireNonNull(uid, "uid");
        fenced = Set.copyOf(fenced);
    }

    /** Nothing known yet. */
    static PlacementState of(String uid) {
        return new PlacementState(
                uid,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Mirrored.NONE,
                Set.of(),
                Watch.NONE);
    }

    /**
     * What is left once the placement is forgotten: the hub object alone, while the hub still has it (its finalizer is
     * on its way off); empty when there is none.
     */
    Optional<PlacementState> forgotten() {
        return object.map(o -> of(uid).withObject(Optional.of(o)));
    }

    /**
     * Without a record or a hub object there is no placement to keep anything for, but the stale copies it fenced
     * (which live on until their agents report them gone).
     */
    PlacementState normalized() {
        return record.isEmpty() && object.isEmpty() ? of(uid).withFenced(fenced) : this;
    }

    /** Whether nothing is known of it any more (the store then drops it). */
    boolean isEmpty() {
        return record.isEmpty() && object.isEmpty() && fenced.isEmpty();
    }

    PlacementState withRecord(Optional<PlacementRecord> record) {
        Copy c = new Copy(this);
        c.record = record;
        return c.done();
    }

    PlacementState withObject(Optional<HubObject> object) {
        Copy c = new Copy(this);
        c.object = object;
        return c.done();
    }

    PlacementState withAsked(DemandCache.Interpreted asked) {
        Copy c = new Copy(this);
        c.asked = Optional.of(asked);
        return c.done();
    }

    PlacementState withDecision(Decision decision) {
        Copy c = new Copy(this);
        c.decision = Optional.of(decision);
        return c.done();
    }

    PlacementState withForwarded(Forwarded forwarded) {
        Copy c = new Copy(this);
        c.forwarded = Optional.of(forwarded);
        return c.done();
    }

    PlacementState withSent(Sent sent) {
        Copy c = new Copy(this);
        c.sent = Optional.of(sent);
        return c.done();
    }

    PlacementState withAvoided(Optional<String> avoided) {
        Copy c = new Copy(this);
        c.avoided = avoided;
        return c.done();
    }

    PlacementState withFailedSpec(Optional<JsonNode> failedSpec) {
        Copy c = new Copy(this);
        c.failedSpec = failedSpec;
        return c.done();
    }

    PlacementState withRefusedSpec(Optional<JsonNode> refusedSpec) {
        Copy c = new Copy(this);
        c.refusedSpec = refusedSpec;
        return c.done();
    }

    PlacementState withShown(Optional<Written> shown) {
        Copy c = new Copy(this);
        c.shown = shown;
        return c.done();
    }

    PlacementState withMirrored(Mirrored mirrored) {
        Copy c = new Copy(this);
        c.mirrored = mirrored;
        return c.done();
    }

    PlacementState withFenced(Set<Fenced> fenced) {
        Copy c = new Copy(this);
        c.fenced = fenced;
        return c.done();
    }

    PlacementState withWatch(Watch watch) {
        Copy c = new Copy(this);
        c.watch = watch;
        return c.done();
    }

    /** A copy of a state with some fields changed: one place that calls the canonical constructor. */
    private static final class Copy {
        private final String uid;
        private Optional<PlacementRecord> record;
        private Optional<HubObject> object;
        private Optional<DemandCache.Interpreted> asked;
        private Optional<Decision> decision;
        private Optional<Forwarded> forwarded;
        private Optional<Sent> sent;
        private Optional<String> avoided;
        private Optional<JsonNode> failedSpec;
        private Optional<JsonNode> refusedSpec;
        private Optional<Written> shown;
        private Mirrored mirrored;
        private Set<Fenced> fenced;
        private Watch watch;

        Copy(PlacementState s) {
            uid = s.uid;
            record = s.record;
            object = s.object;
            asked = s.asked;
            decision = s.decision;
            forwarded = s.forwarded;
            sent = s.sent;
            avoided = s.avoided;
            failedSpec = s.failedSpec;
            refusedSpec = s.refusedSpec;
            shown = s.shown;
            mirrored = s.mirrored;
            fenced = s.fenced;
            watch = s.watch;
        }

        PlacementState done() {
            return new PlacementState(
                    uid,
                    record,
                    object,
                    asked,
                    decision,
                    forwarded,
                    sent,
                    avoided,
                    failedSpec,
                    refusedSpec,
                    shown,
                    mirrored,
                    fenced,
                    watch);
        }
    }

    /** One more stale copy fenced. */
    PlacementState fencedAlso(Fenced f) {
        return withFenced(Stream.concat(fenced.stream(), Stream.of(f)).collect(Collectors.toUnmodifiableSet()));
    }

    /** Its copy on {@code cluster} is gone: should one appear again, it is fenced again. */
    PlacementState copyGoneFrom(String cluster) {
        return fenced.stream().anyMatch(f -> f.cluster().equals(cluster))
                ? withFenced(fenced.stream()
                        .filter(f -> !f.cluster().equals(cluster))
                        .collect(Collectors.toUnmodifiableSet()))
                : this;
    }

    /** When a command at the record's current epoch last went out; the record's own time when none did. */
    Instant lastSent(PlacementRecord p) {
        return sent.filter(s -> s.epoch() == p.epoch()).map(Sent::at).orElse(p.at());
    }
}
