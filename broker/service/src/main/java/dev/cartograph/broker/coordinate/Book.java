package dev.cartograph.broker.coordinate;

import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The placements the broker knows, the hub objects they are for, the latest decision for each,
 * and every placed copy agents report. A placement record is put here only once it is durable (or
 * was read back from the placements topic). Coordinator thread only.
 */
final class Book {
    private static final Logger LOG = LoggerFactory.getLogger(Book.class);
    private final Outbox outbox;
    private final BooleanSupplier active;
    private final Runnable fenced;
    private long term;
    /*
     * Placements, decisions and members are persistent maps: publishing them in a BrokerView after every
     * batch shares them as they are (no copy that grows with the number of placements); each change costs
     * O(log n).
     */
    private PMap<String, PlacementRecord> placements = HashTreePMap.empty();
    private PMap<String, Decision> decisions = HashTreePMap.empty();
    /** The member copy's latest summary per placement, kept as copies and placements change. */
    private PMap<String, WorkloadSummary> members = HashTreePMap.empty();

    private final Queued queued = new Queued();
    private final Map<String, HubObject> objects = new HashMap<>();
    /** Every placed copy any agent reports, by its key; read in whatever order the topics interleave. */
    private final Map<WorkloadKey, WorkloadSummary> copies = new HashMap<>();
    /** The spec last forwarded to the member, and what it asked for, per placed uid. */
    private final Map<String, Forwarded> forwarded = new HashMap<>();

    /** What went to the member: the hub object's spec and the demand it made (empty when not known, e.g. after a restart). */
    record Forwarded(com.fasterxml.jackson.databind.JsonNode spec, Optional<DemandCache.Asked> asked) {}
    /** When the last command for a placement's current epoch went out (an Apply or a Delete), to send it again when unanswered. */
    private final Map<String, Sent> sent = new HashMap<>();

    private final Map<String, String> avoided = new HashMap<>();

    /** The last command sent for a placement: at which epoch, and when. */
    record Sent(long epoch, java.time.Instant at) {}

    /** Told of every change to a placement's record or member copy (what it holds may have changed). */
    interface Holdings {
        /** @param record the placement's record now, null when it is gone; {@code member} its copy, null when none */
        void changed(String uid, PlacementRecord record, WorkloadSummary member);

        Holdings NONE = (uid, record, member) -> {};
    }

    private final Holdings holdings;

    /** @param fenced called when a write is refused because a newer leader took over */
    Book(Outbox outbox, BooleanSupplier active, Runnable fenced, Holdings holdings) {
        this.outbox = outbox;
        this.active = active;
        this.fenced = fenced;
        this.holdings = holdings;
    }

    /** Records written from now on carry this leader term. */
    void term(long term) {
        this.term = term;
    }

    /**
     * Makes the record durable on the placements topic, then keeps it. False (and nothing kept) when
     * this instance is not active or the write failed: the caller must not act on it.
     */
    boolean write(PlacementRecord p) {
        return writeAll(List.of(p));
    }

    /** As {@link #write}, for records that must be durable together (all are kept, or none). */
    boolean writeAll(List<PlacementRecord> records) {
        if (!active.getAsBoolean()) {
            return false;
        }
        List<PlacementRecord> stamped =
                records.stream().map(p -> p.inTerm(term)).toList();
        try {
            outbox.placements(stamped);
            stamped.forEach(this::put);
            return true;
        } catch (Outbox.Fenced e) {
            LOG.error("{} ({} records): not written, {}", records.get(0).target(), records.size(), e.getMessage());
            fenced.run();
            return false;
        } catch (Exception e) {
            LOG.error(
                    "could not make the placement of {} ({} records) durable; not acting on it: {}",
                    records.get(0).target(),
                    records.size(),
                    e.toString());
            return false;
        }
    }

    /** A record read back from the placements topic (what another leader, or an earlier run, decided). */
    void replayed(String uid, Optional<PlacementRecord> record) {
        if (record.isEmpty()) {
            remove(uid);
        } else {
            put(record.get());
        }
    }

    private void put(PlacementRecord p) {
        PlacementRecord before = placements.get(p.uid());
        placements = placements.plus(p.uid(), p);
        queued.changed(before, p);
        memberChanged(p.uid());
    }

    private void remove(String uid) {
        PlacementRecord before = placements.get(uid);
        if (before != null) {
            placements = placements.minus(uid);
            queued.changed(before, null);
            members = members.minus(uid);
            holdings.changed(uid, null, null);
        }
    }

    /** Finds the member copy of the placement again (the placement or some copy changed). */
    private void memberChanged(String uid) {
        PlacementRecord p = placements.get(uid);
        Optional<WorkloadSummary> m = p == null ? Optional.empty() : member(p);
        if (m.isPresent()) {
            if (members.get(uid) != m.get()) {
                members = members.plus(uid, m.get());
            }
        } else if (members.containsKey(uid)) {
            members = members.minus(uid);
        }
        holdings.changed(uid, p, m.orElse(null));
    }

    /** Writes the tombstone; false when it could not be made durable (the caller tries again later). */
    boolean tombstone(String uid) {
        if (!active.getAsBoolean()) {
            return false;
        }
        try {
            outbox.forget(uid);
            return true;
        } catch (Outbox.Fenced e) {
            LOG.error("tombstone for {} not written, {}", uid, e.getMessage());
            fenced.run();
            return false;
        } catch (Exception e) {
            LOG.warn("could not write the tombstone for {}: {}", uid, e.toString());
            return false;
        }
    }

    Optional<PlacementRecord> placement(String uid) {
        return Optional.ofNullable(placements.get(uid));
    }

    Collection<PlacementRecord> placements() {
        return placements.values();
    }

    /** Scans every placement: for the clock's work (once a tick), never per input. */
    List<PlacementRecord> inState(State state) {
        return placements.values().stream().filter(p -> p.state() == state).toList();
    }

    /** The queued placements, in order, and which entered the queue since they were last attempted. */
    Queued queued() {
        return queued;
    }

    Optional<HubObject> object(String uid) {
        return Optional.ofNullable(objects.get(uid));
    }

    Collection<HubObject> objects() {
        return objects.values();
    }

    void object(HubObject object) {
        objects.put(object.uid(), object);
    }

    void objectGone(String uid) {
        objects.remove(uid);
    }

    void decided(String uid, Decision decision) {
        if (decisions.get(uid) != decision) {
            decisions = decisions.plus(uid, decision);
        }
    }

    /** A placed copy reported by an agent; returns the one it replaces, if any. */
    Optional<WorkloadSummary> copy(WorkloadSummary s) {
        Optional<WorkloadSummary> before = Optional.ofNullable(copies.put(s.key(), s));
        before.flatMap(WorkloadSummary::placementId).ifPresent(this::memberChanged);
        s.placementId().ifPresent(this::memberChanged);
        return before;
    }

    /** The copy is gone from its member; returns what was last reported of it, if anything. */
    Optional<WorkloadSummary> copyGone(WorkloadKey key) {
        Optional<WorkloadSummary> gone = Optional.ofNullable(copies.remove(key));
        gone.flatMap(WorkloadSummary::placementId).ifPresent(this::memberChanged);
        return gone;
    }

    Collection<WorkloadSummary> copies() {
        return copies.values();
    }

    /** The copy of the placement on the cluster it is placed on, as that cluster's agent last reported it. */
    Optional<WorkloadSummary> member(PlacementRecord p) {
        if (p.cluster().isEmpty()) {
            return Optional.empty();
        }
        PlacementRecord.Target t = p.target();
        String group = t.apiVersion().contains("/")
                ? t.apiVersion().substring(0, t.apiVersion().indexOf('/'))
                : "";
        WorkloadSummary s = copies.get(new WorkloadKey(p.cluster().get(), t.namespace(), group, t.kind(), t.name()));
        return s != null && s.placementId().equals(Optional.of(p.uid())) ? Optional.of(s) : Optional.empty();
    }

    /** Keeps a newer version of a record without writing it (only its reason changed; the durable one stays valid). */
    void keep(PlacementRecord p) {
        put(p);
    }

    Optional<Forwarded> forwarded(String uid) {
        return Optional.ofNullable(forwarded.get(uid));
    }

    void forwarded(String uid, Forwarded what) {
        forwarded.put(uid, what);
    }

    /** When a command at the placement's current epoch last went out; the record's own time when none did. */
    java.time.Instant lastSent(PlacementRecord p) {
        Sent s = sent.get(p.uid());
        return s != null && s.epoch() == p.epoch() ? s.at() : p.at();
    }

    void sent(PlacementRecord p, java.time.Instant at) {
        sent.put(p.uid(), new Sent(p.epoch(), at));
    }

    /** A placement taken back from a cluster that could not start it: its next placement goes elsewhere. */
    void avoid(String uid, String cluster) {
        avoided.put(uid, cluster);
    }

    /** The cluster a queued placement should not go back to, if any; forgotten once it is placed. */
    Optional<String> avoided(String uid) {
        return Optional.ofNullable(avoided.get(uid));
    }

    void placedAgain(String uid) {
        avoided.remove(uid);
    }

    /** Drops everything kept about a placement except its hub object (the object is gone, or so is its placement). */
    void forget(String uid) {
        remove(uid);
        decisions = decisions.minus(uid);
        forwarded.remove(uid);
        sent.remove(uid);
        avoided.remove(uid);
    }

    /** Every placement, immutable (shared as it is by the published view). */
    Map<String, PlacementRecord> placementsView() {
        return placements;
    }

    /** The latest decision per placement, immutable. */
    Map<String, Decision> decisionsView() {
        return decisions;
    }

    /** The member copy's latest summary per placement that has one, immutable. */
    Map<String, WorkloadSummary> membersView() {
        return members;
    }
}
