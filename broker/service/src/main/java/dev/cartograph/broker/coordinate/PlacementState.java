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

    PlacementState withObject(Optional<HubObject> object) {
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

    PlacementState withAsked(DemandCache.Interpreted asked) {
        return new PlacementState(
                uid,
                record,
                object,
                Optional.of(asked),
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

    PlacementState withDecision(Decision decision) {
        return new PlacementState(
                uid,
                record,
                object,
                asked,
                Optional.of(decision),
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

    PlacementState withForwarded(Forwarded forwarded) {
        return new PlacementState(
                uid,
                record,
                object,
                asked,
                decision,
                Optional.of(forwarded),
                sent,
                avoided,
                failedSpec,
                refusedSpec,
                shown,
                mirrored,
                fenced,
                watch);
    }

    PlacementState withSent(Sent sent) {
        return new PlacementState(
                uid,
                record,
                object,
                asked,
                decision,
                forwarded,
                Optional.of(sent),
                avoided,
                failedSpec,
                refusedSpec,
                shown,
                mirrored,
                fenced,
                watch);
    }

    PlacementState withAvoided(Optional<String> avoided) {
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

    PlacementState withFailedSpec(Optional<JsonNode> failedSpec) {
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

    PlacementState withRefusedSpec(Optional<JsonNode> refusedSpec) {
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

    PlacementState withShown(Optional<Written> shown) {
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

    PlacementState withMirrored(Mirrored mirrored) {
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

    PlacementState withFenced(Set<Fenced> fenced) {
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

    PlacementState withWatch(Watch watch) {
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
