package dev.cartograph.broker.coordinate;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.fleet.Reservation;
import dev.cartograph.interpreter.dependency.Dependency;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.PodDemand;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;

/**
 * The one store of what the broker knows per placement: a {@link PlacementState} per hub object uid, replaced whole on
 * every change, and forgotten with one removal ({@link #forget}). Beside them, the placed copies every agent reports
 * (by their key on the member, since a stale copy may live on a cluster the placement has left). Everything else here
 * is derived from those two and kept as they change, so nothing scans every placement to find it: the records,
 * decisions and member copies the published view shares (persistent maps: publishing costs the same however many
 * placements there are), the queue ({@link PlacementQueue}), who needs which hub dependency, and what each placement
 * holds ({@link Holdings}). A record is kept when it is staged to go out with its batch ({@link #write}), or read back
 * from the placements topic. What a batch changed is remembered until it commits: a batch that does not is undone
 * ({@link #undo}), and so is one input of it that throws ({@link #undoInput}); the fleet's reservations are made
 * through the store so they are undone with it.
 *
 * <p>Coordinator thread only, and checked: every call from another thread fails fast ({@link WriterThread}).
 */
final class PlacementStore {
    private final WriterThread writer;
    private final Effects effects;
    private final Fleet fleet;
    private final Map<String, PlacementState> states = new HashMap<>();
    /** Every placed copy any agent reports, by its key; read in whatever order the topics interleave. */
    private final Map<WorkloadKey, WorkloadSummary> copies = new HashMap<>();
    /** The same copies by the placement id they are labelled with (a placement without a record is found by it). */
    private final Map<String, Set<WorkloadKey>> copiesByPlacement = new HashMap<>();

    /* Derived, persistent: shared as they are by the published view; each change costs O(log n). */
    private PMap<String, PlacementRecord> placements = HashTreePMap.empty();
    private PMap<String, Decision> decisions = HashTreePMap.empty();
    private PMap<String, WorkloadSummary> members = HashTreePMap.empty();

    private final PlacementQueue queue = new PlacementQueue();
    /** namespace/Kind/name of a hub dependency → the uids of the objects whose pods need it, as last interpreted. */
    private final Map<String, Set<String>> users = new HashMap<>();

    private final Holdings holdings;
    /** Commands sent so far, to order them. */
    private long sends;
    /** Clusters where a reservation was released since {@link #takeFreed} was last called. */
    private final Set<String> freed = new java.util.TreeSet<>();

    /** Told of every change to a placement's record or member copy (what it holds may have changed). */
    interface Holdings {
        /** @param record the placement's record now, null when it is gone; {@code member} its copy, null when none */
        void changed(String uid, PlacementRecord record, WorkloadSummary member);

        Holdings NONE = (uid, record, member) -> {};
    }

    /** What the batch and the unit being handled changed, to undo them. */
    private final UndoJournal journal = new UndoJournal();

    /**
     * @param effects where records and tombstones are staged (they go out with the batch's commands)
     * @param fleet   the fleet whose reservations this store makes for its placements, and undoes with them
     */
    PlacementStore(WriterThread writer, Effects effects, Fleet fleet, Holdings holdings) {
        this.writer = writer;
        this.effects = effects;
        this.fleet = fleet;
        this.holdings = holdings;
    }

    // ---- the state of one placement

    Optional<PlacementState> state(String uid) {
        writer.check();
        return Optional.ofNullable(states.get(uid));
    }

    /** Changes one placement's state (made empty first when none is known); one that is left empty is dropped. */
    void update(String uid, UnaryOperator<PlacementState> change) {
        writer.check();
        touch(uid);
        PlacementState before = states.get(uid);
        PlacementState after =
                change.apply(before == null ? PlacementState.of(uid) : before).normalized();
        replace(uid, before, after.isEmpty() ? null : after);
    }

    /**
     * Forgets everything about a placement but its hub object, while the hub has it (its placement is deleted, or is
     * about to be): one removal.
     */
    void forget(String uid) {
        writer.check();
        touch(uid);
        PlacementState before = states.get(uid);
        if (before != null) {
            replace(uid, before, before.forgotten().orElse(null));
        }
    }

    private void replace(String uid, PlacementState before, PlacementState after) {
        if (after == null) {
            states.remove(uid);
        } else {
            states.put(uid, after);
        }
        Optional<PlacementRecord> was = before == null ? Optional.empty() : before.record();
        Optional<PlacementRecord> is = after == null ? Optional.empty() : after.record();
        if (was != is) {
            recordChanged(uid, was.orElse(null), is.orElse(null));
        }
        Optional<Decision> decided = after == null ? Optional.empty() : after.decision();
        if ((before == null ? Optional.empty() : before.decision()) != decided) {
            decisions = decided.isPresent() ? decisions.plus(uid, decided.get()) : decisions.minus(uid);
        }
        Optional<DemandCache.Interpreted> asked = after == null ? Optional.empty() : after.asked();
        Optional<DemandCache.Interpreted> askedBefore = before == null ? Optional.empty() : before.asked();
        if (askedBefore != asked) {
            askedBefore.ifPresent(a -> index(uid, a, false));
            asked.ifPresent(a -> index(uid, a, true));
        }
    }

    private void recordChanged(String uid, PlacementRecord before, PlacementRecord after) {
        placements = after == null ? placements.minus(uid) : placements.plus(uid, after);
        queue.changed(before, after);
        if (after == null) {
            if (before != null) {
                members = members.minus(uid);
                holdings.changed(uid, null, null);
            }
        } else {
            memberChanged(uid);
        }
    }

    // ---- records: staged with the batch

    /**
     * Keeps the record and stages it to go out with the batch's other effects ({@link Effects#commit}): the batch is
     * durable as a whole, or undone as a whole, so the caller acts on the record at once.
     */
    void write(PlacementRecord p) {
        writeAll(List.of(p));
    }

    /** As {@link #write}, for several records (a preemption's victims and its preemptor). */
    void writeAll(List<PlacementRecord> records) {
        writer.check();
        effects.records(records).forEach(this::keep);
    }

    /** Stages the placement's tombstone (it is forgotten by the caller). */
    void tombstone(String uid) {
        writer.check();
        effects.tombstone(uid);
    }

    /**
     * A record read back from the placements topic (what another leader, or an earlier run, decided): an observation,
     * newer than anything this batch did to the placement, so never undone.
     */
    void replayed(String uid, Optional<PlacementRecord> record) {
        writer.check();
        journal.observed(uid);
        PlacementState before = states.get(uid);
        PlacementState after = (before == null ? PlacementState.of(uid) : before)
                .withRecord(record)
                .normalized();
        replace(uid, before, after.isEmpty() ? null : after);
    }

    /** Keeps a newer version of a record without writing it (only its reason changed; the durable one stays valid). */
    void keep(PlacementRecord p) {
        update(p.uid(), s -> s.withRecord(Optional.of(p)));
    }

    Optional<PlacementRecord> placement(String uid) {
        writer.check();
        return Optional.ofNullable(placements.get(uid));
    }

    Collection<PlacementRecord> placements() {
        writer.check();
        return placements.values();
    }

    /** Scans every placement: for the clock's work (once a tick), never per input. */
    List<PlacementRecord> inState(State state) {
        return placements().stream().filter(p -> p.state() == state).toList();
    }

    /** The queued placements, in order, and which entered the queue since they were last attempted. */
    PlacementQueue queue() {
        writer.check();
        return queue;
    }

    void decided(String uid, Decision decision) {
        if (state(uid).flatMap(PlacementState::decision).orElse(null) != decision) {
            update(uid, s -> s.withDecision(decision));
        }
    }

    Optional<PlacementState.Forwarded> forwarded(String uid) {
        return state(uid).flatMap(PlacementState::forwarded);
    }

    void forwarded(String uid, PlacementState.Forwarded what) {
        update(uid, s -> s.withForwarded(what));
    }

    /** When a command at the placement's current epoch last went out; the record's own time when none did. */
    java.time.Instant lastSent(PlacementRecord p) {
        return state(p.uid()).map(s -> s.lastSent(p)).orElse(p.at());
    }

    void sent(PlacementRecord p, java.time.Instant at) {
        long order = ++sends;
        update(p.uid(), s -> s.withSent(new PlacementState.Sent(p.epoch(), at, order)));
    }

    /** A placement taken back from a cluster that could not start it: its next placement goes elsewhere. */
    void avoid(String uid, String cluster) {
        update(uid, s -> s.withAvoided(Optional.of(cluster)));
    }

    /** The cluster a queued placement should not go back to, if any; forgotten once it is placed. */
    Optional<String> avoided(String uid) {
        return state(uid).flatMap(PlacementState::avoided);
    }

    /**
     * It is placed (again): it no longer avoids a cluster, and the waiting reason shown and the member's status mirrored
     * on its hub object start afresh.
     */
    void placedAgain(String uid) {
        update(
                uid,
                s -> s.withAvoided(Optional.empty())
                        .withShown(Optional.empty())
                        .withMirrored(PlacementState.Mirrored.NONE));
    }

    // ---- hub objects

    Optional<HubObject> object(String uid) {
        return state(uid).flatMap(PlacementState::object);
    }

    /** Every hub object known (a scan: for taking over, never per input). */
    List<HubObject> objects() {
        writer.check();
        return states.values().stream()
                .map(PlacementState::object)
                .flatMap(Optional::stream)
                .toList();
    }

    void object(HubObject object) {
        update(object.uid(), s -> s.withObject(Optional.of(object)));
    }

    void objectGone(String uid) {
        update(uid, s -> s.withObject(Optional.empty()));
    }

    // ---- member copies

    /** A placed copy reported by an agent; returns the one it replaces, if any. */
    Optional<WorkloadSummary> copy(WorkloadSummary s) {
        writer.check();
        Optional<WorkloadSummary> before = Optional.ofNullable(copies.put(s.key(), s));
        before.flatMap(WorkloadSummary::placementId).ifPresent(uid -> unindex(uid, s.key()));
        s.placementId()
                .ifPresent(uid -> copiesByPlacement
                        .computeIfAbsent(uid, k -> new java.util.HashSet<>())
                        .add(s.key()));
        before.flatMap(WorkloadSummary::placementId).ifPresent(this::memberChanged);
        s.placementId().ifPresent(this::memberChanged);
        return before;
    }

    /** The copy is gone from its member; returns what was last reported of it, if anything. */
    Optional<WorkloadSummary> copyGone(WorkloadKey key) {
        writer.check();
        Optional<WorkloadSummary> gone = Optional.ofNullable(copies.remove(key));
        gone.flatMap(WorkloadSummary::placementId).ifPresent(uid -> unindex(uid, key));
        gone.flatMap(WorkloadSummary::placementId).ifPresent(this::memberChanged);
        return gone;
    }

    private void unindex(String uid, WorkloadKey key) {
        Set<WorkloadKey> keys = copiesByPlacement.get(uid);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            copiesByPlacement.remove(uid);
        }
    }

    /** The copies agents report labelled with this placement id, wherever they are. */
    List<WorkloadSummary> copiesOf(String uid) {
        writer.check();
        Set<WorkloadKey> keys = copiesByPlacement.get(uid);
        return keys == null ? List.of() : keys.stream().map(copies::get).toList();
    }

    Collection<WorkloadSummary> copies() {
        writer.check();
        return copies.values();
    }

    /** The copy of the placement on the cluster it is placed on, as that cluster's agent last reported it. */
    Optional<WorkloadSummary> member(PlacementRecord p) {
        writer.check();
        if (p.cluster().isEmpty()) {
            return Optional.empty();
        }
        WorkloadSummary s = copies.get(Forwarding.copy(p, p.cluster().get()));
        return s != null && s.placementId().equals(Optional.of(p.uid())) ? Optional.of(s) : Optional.empty();
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

    // ---- reservations: the nodes a placement holds until its agent accounts for them (undone with the batch)

    Reservation reserve(String uid, long epoch, Decision.Placed placed, List<PodDemand> pods) {
        writer.check();
        touch(uid);
        return fleet.reserve(uid, epoch, placed, pods);
    }

    Reservation extend(String uid, String cluster, long epoch, Decision.Placed placed, List<PodDemand> added) {
        writer.check();
        touch(uid);
        return fleet.extend(uid, cluster, epoch, placed, added);
    }

    void hold(Reservation r) {
        writer.check();
        touch(r.placementId());
        fleet.hold(r);
    }

    /**
     * Holds again what every placed record reserved and the fleet does not hold yet (a new leader taking over): what
     * was decided before this batch, so never undone with it.
     */
    void holdRecordedReservations() {
        for (PlacementRecord p : placements()) {
            if ((p.state() == State.PLACED || p.state() == State.APPLIED)
                    && p.cluster().isPresent()
                    && !p.reserved().isEmpty()
                    && fleet.reservation(p.uid()).isEmpty()) {
                holdRecorded(new Reservation(p.uid(), p.cluster().get(), p.epoch(), p.reserved()));
            }
        }
    }

    /** Holds again what a durable record reserved: never undone with the batch. */
    void holdRecorded(Reservation r) {
        writer.check();
        fleet.hold(r);
        journal.held(r);
    }

    /** Releases what the placement holds; its cluster has room for waiting gangs again ({@link #takeFreed}). */
    Optional<Reservation> release(String uid) {
        writer.check();
        touch(uid);
        Optional<Reservation> released = fleet.release(uid);
        released.ifPresent(r -> freed.add(r.cluster()));
        return released;
    }

    /** The clusters where a reservation was released since last asked: the queue tries its gangs there again. */
    Set<String> takeFreed() {
        writer.check();
        Set<String> out = Set.copyOf(freed);
        freed.clear();
        return out;
    }

    Optional<Reservation> reservation(String uid) {
        writer.check();
        return fleet.reservation(uid);
    }

    // ---- batches: committed, or undone

    /** A batch starts: what it changes is remembered until {@link #committed} or {@link #undo}. */
    void begin() {
        writer.check();
        journal.begin();
    }

    /**
     * A unit of the batch starts (an input, one gang's attempt): what it changes alone can be undone by
     * {@link #undoInput}. Returns the unit around it (if any), for {@link #endInput}.
     */
    UndoJournal.Unit beginInput() {
        return journal.beginUnit();
    }

    /** The unit is done: what it changed counts as changed by the unit around it. */
    void endInput(UndoJournal.Unit outer) {
        journal.endUnit(outer);
    }

    /** The batch's effects are durable: nothing of it will be undone. */
    void committed() {
        journal.committed();
    }

    /**
     * Undoes the unit being handled (it failed halfway). Returns the clusters whose reservations it had changed (they
     * count as freed too: see {@link #takeFreed}).
     */
    Set<String> undoInput() {
        writer.check();
        return restore(journal.takeUnit());
    }

    /**
     * Undoes the batch (its effects did not commit): every placement it changed is as it was before, but for what was
     * observed meanwhile (its hub object, what that asks); so are their reservations. Returns the clusters whose
     * reservations it had changed (their capacity changed back). The placements it changed are then handled again
     * (see {@link #touchedBy}).
     */
    Set<String> undo() {
        writer.check();
        return restore(journal.takeBatch());
    }

    private Set<String> restore(Map<String, UndoJournal.Before> changed) {
        Set<String> clusters = new HashSet<>();
        for (Map.Entry<String, UndoJournal.Before> e : changed.entrySet()) {
            String uid = e.getKey();
            PlacementState now = states.get(uid);
            PlacementState then = e.getValue().state().orElse(PlacementState.of(uid));
            if (now != null) { // observations stay: the hub object as last seen, and what it asks
                then = then.withObject(now.object());
                if (now.asked().isPresent()) {
                    then = then.withAsked(now.asked().get());
                }
            }
            then = then.normalized();
            replace(uid, now, then.isEmpty() ? null : then);
            fleet.release(uid).ifPresent(r -> clusters.add(r.cluster()));
            freed.addAll(clusters);
            e.getValue().reservation().ifPresent(r -> {
                fleet.hold(r);
                clusters.add(r.cluster());
            });
        }
        return clusters;
    }

    /** The placements the batch changed so far (to handle again when it is undone). */
    Set<String> touchedBy() {
        return journal.touched();
    }

    private void touch(String uid) {
        journal.touch(uid, () -> new UndoJournal.Before(Optional.ofNullable(states.get(uid)), fleet.reservation(uid)));
    }

    // ---- hub dependencies

    /** The uids of the objects whose pods need this dependency, as last interpreted. */
    Set<String> users(Dependency.Kind kind, String namespace, String name) {
        writer.check();
        return Set.copyOf(users.getOrDefault(usersKey(namespace, kind, name), Set.of()));
    }

    private void index(String uid, DemandCache.Interpreted asked, boolean add) {
        for (Dependency d : asked.needs().dependencies()) {
            String key = usersKey(asked.namespace(), d.kind(), d.name());
            if (add) {
                users.computeIfAbsent(key, k -> new HashSet<>()).add(uid);
            } else {
                Set<String> of = users.get(key);
                if (of != null && of.remove(uid) && of.isEmpty()) {
                    users.remove(key);
                }
            }
        }
    }

    private static String usersKey(String namespace, Dependency.Kind kind, String name) {
        return namespace + "/" + kind.kind() + "/" + name;
    }

    // ---- what the view shares

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

    /** How many placements the store knows anything of (tests). */
    int size() {
        writer.check();
        return states.size();
    }
}
