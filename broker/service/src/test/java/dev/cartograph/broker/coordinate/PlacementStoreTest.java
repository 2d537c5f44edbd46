package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The store of placement state on its own: one value per placement, indexes derived from it, one thread. */
@Timeout(60)
class PlacementStoreTest {
    static final Instant T0 = Instant.parse("2026-12-07T12:00:00Z");

    private final List<PlacementRecord> written = new ArrayList<>();
    private final List<String> holdings = new ArrayList<>();
    private boolean active = true;
    private final WriterThread thread = new WriterThread();
    private final Outbox outbox = new Outbox() {
        @Override
        public void placement(PlacementRecord record) {
            written.add(record);
        }

        @Override
        public void forget(String uid) {}

        @Override
        public boolean command(String cluster, Command command) {
            return true;
        }
    };
    private final Effects effects = new Effects(outbox, NoHub.INSTANCE, () -> active, () -> {}, thread);
    private final PlacementStore store = new PlacementStore(
            thread,
            effects,
            new dev.cartograph.fleet.Fleet(),
            (uid, record, member) -> holdings.add(uid + ":" + (record == null ? "-" : record.state()) + ":"
                    + (member == null ? "-" : member.phase())));

    @BeforeEach
    void enter() {
        thread.enter();
    }

    @AfterEach
    void exit() {
        thread.exit();
    }

    @Test
    void forgettingAPlacementIsOneRemovalThatLeavesOnlyItsHubObject() {
        HubObject object = object("a");
        store.object(object);
        PlacementRecord placed = record("a", State.PLACED, Optional.of("east"));
        store.write(placed);
        Decision decision = new Decision.Unschedulable(List.of());
        store.decided("a", decision);
        store.forwarded("a", new PlacementState.Forwarded(object.spec(), Optional.empty()));
        store.sent(placed, T0.plusSeconds(5));
        store.avoid("a", "west");
        store.update(
                "a",
                s -> s.fencedAlso(new PlacementState.Fenced("west", 1))
                        .withWatch(new PlacementState.Watch(Optional.of(1L), Optional.of(T0), true))
                        .withFailedSpec(Optional.of(object.spec())));
        store.copy(copy("a", "east", "Running"));
        assertThat(store.placementsView()).containsOnlyKeys("a");
        assertThat(store.decisionsView()).containsOnlyKeys("a");
        assertThat(store.membersView()).containsOnlyKeys("a");
        assertThat(store.lastSent(placed)).isEqualTo(T0.plusSeconds(5));

        store.forget("a");

        assertThat(store.state("a")).contains(PlacementState.of("a").withObject(Optional.of(object)));
        assertThat(store.placementsView()).isEmpty();
        assertThat(store.decisionsView()).isEmpty();
        assertThat(store.membersView()).isEmpty();
        assertThat(holdings).last().isEqualTo("a:-:-");
        store.objectGone("a");
        assertThat(store.size()).isZero();
    }

    @Test
    void theQueueIsKeptFromTheRecordsAsTheyChange() {
        store.object(object("q"));
        store.keep(record("q", State.QUEUED, Optional.empty()));
        assertThat(store.queue().uids()).containsExactly("q");
        assertThat(store.queue().fresh()).containsExactly("q");
        store.write(record("q", State.PLACED, Optional.of("east")));
        assertThat(store.queue().uids()).isEmpty();
        store.replayed("q", Optional.empty()); // a tombstone read back
        assertThat(store.placementsView()).isEmpty();
        assertThat(store.object("q")).isPresent();
    }

    @Test
    void aRecordIsStagedAndGoesOutWithTheBatchAndABatchStagedWhileNotActiveIsNotCommitted() {
        store.write(record("x", State.PLACED, Optional.of("east")));
        assertThat(written).isEmpty(); // staged: it goes out with the batch
        assertThat(effects.commit()).isTrue();
        assertThat(store.placement("x")).contains(written.get(0));

        store.begin();
        active = false; // the lease was lost while the batch was handled
        store.write(record("x", State.FAILED, Optional.empty()));
        active = true;
        assertThat(effects.commit()).isFalse();
        store.undo();
        assertThat(written).hasSize(1);
        assertThat(store.placement("x")).contains(written.get(0));
    }

    @Test
    void anUndoneBatchRestoresWhatItChangedWithItsReservationsButKeepsWhatWasObserved() {
        HubObject a = object("a");
        store.object(a);
        PlacementRecord queued = record("a", State.QUEUED, Optional.empty());
        store.keep(queued);
        store.committed();

        store.begin();
        dev.cartograph.fleet.Reservation held = store.reserve("a", 1, placedOnEast(), List.of());
        store.write(record("a", State.PLACED, Optional.of("east")));
        store.decided("a", new Decision.Unschedulable(List.of()));
        HubObject seen = object("a"); // the hub object changed meanwhile: an observation, not undone
        store.object(seen);
        store.update("b", s -> s.fencedAlso(new PlacementState.Fenced("west", 3)));

        assertThat(store.undo()).containsExactly(held.cluster());
        assertThat(store.placement("a")).contains(queued);
        assertThat(store.queue().uids()).containsExactly("a");
        assertThat(store.state("a").orElseThrow().decision()).isEmpty();
        assertThat(store.object("a")).containsSame(seen);
        assertThat(store.reservation("a")).isEmpty();
        assertThat(store.state("b")).isEmpty();
    }

    @Test
    void anInputUndoneAloneLeavesWhatTheBatchDidBeforeIt() {
        store.begin();
        store.object(object("a"));
        store.keep(record("a", State.QUEUED, Optional.empty()));
        store.beginInput();
        store.write(record("a", State.FAILED, Optional.empty()));
        store.undoInput();
        assertThat(store.placement("a").orElseThrow().state()).isEqualTo(State.QUEUED);
        store.undo();
        assertThat(store.placement("a")).isEmpty();
        assertThat(store.object("a")).isPresent(); // seen: kept
    }

    @Test
    void aUnitInsideAnotherIsUndoneAloneAndWhatItKeptCountsForTheOuterOne() {
        store.begin();
        store.object(object("a"));
        store.object(object("b"));
        var outer = store.beginInput();
        store.keep(record("a", State.QUEUED, Optional.empty()));
        var inner = store.beginInput(); // a unit within it (an input handled again at a tick)
        store.keep(record("b", State.QUEUED, Optional.empty()));
        store.endInput(inner); // done: b's record counts as the outer unit's change
        store.undoInput(); // the outer unit fails: a's and b's records go
        store.endInput(outer);
        assertThat(store.placement("a")).isEmpty();
        assertThat(store.placement("b")).isEmpty();
        assertThat(store.object("b")).isPresent();
    }

    @Test
    void whatATakeoverHoldsAgainFromTheRecordsIsNotUndoneWithItsBatch() {
        store.begin();
        store.object(object("a")); // touched before it is held again
        var recorded = new dev.cartograph.fleet.Reservation("a", "east", 1, Map.of());
        store.holdRecorded(recorded);
        store.holdRecorded(new dev.cartograph.fleet.Reservation("b", "east", 1, Map.of()));
        store.undo();
        assertThat(store.reservation("a")).contains(recorded);
        assertThat(store.reservation("b")).isPresent();
    }

    private static Decision.Placed placedOnEast() {
        return new Decision.Placed("east", List.of(), List.of(), Map.of());
    }

    @Test
    void aPlacementWithNeitherRecordNorObjectKeepsOnlyTheStaleCopiesItFencedUntilTheyAreGone() {
        store.update(
                "gone",
                s -> s.fencedAlso(new PlacementState.Fenced("east", Long.MAX_VALUE))
                        .withAvoided(Optional.of("east")));
        assertThat(store.state("gone"))
                .contains(PlacementState.of("gone")
                        .withFenced(java.util.Set.of(new PlacementState.Fenced("east", Long.MAX_VALUE))));
        store.update("gone", s -> s.copyGoneFrom("east"));
        assertThat(store.size()).isZero();
    }

    @Test
    void theMemberCopyIsTheOneOnThePlacementsClusterCarryingItsId() {
        store.object(object("m"));
        store.write(record("m", State.APPLIED, Optional.of("east")));
        store.copy(copy("m", "west", "Running")); // a stale copy elsewhere is not its member
        assertThat(store.membersView()).isEmpty();
        store.copy(copy("m", "east", "Pending"));
        assertThat(store.membersView().get("m").phase()).isEqualTo("Pending");
        store.copyGone(new WorkloadKey("east", "ml", "batch", "Job", "m"));
        assertThat(store.membersView()).isEmpty();
        assertThat(holdings).last().isEqualTo("m:APPLIED:-");
    }

    @Test
    void anotherThreadTouchingTheStoreFailsFastAndSoDoesTheOwnerBetweenBatches() throws Exception {
        CompletableFuture<Object> elsewhere = CompletableFuture.supplyAsync(() -> store.placement("a"));
        assertThatThrownBy(elsewhere::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(ConcurrentModificationException.class)
                .hasMessageContaining("confined to the coordinator's thread");
        CompletableFuture<Void> second = CompletableFuture.runAsync(thread::enter);
        assertThatThrownBy(second::get).cause().isInstanceOf(ConcurrentModificationException.class);
        thread.exit();
        assertThatThrownBy(() -> store.placement("a"))
                .isInstanceOf(ConcurrentModificationException.class)
                .hasMessageContaining("between batches");
        thread.enter();
    }

    private static HubObject object(String name) {
        return HubObject.parse(CoordinatorHarness.job(name, name, T0, 1, "", ""), PriorityClasses.NONE, T0)
                .orElseThrow();
    }

    private static PlacementRecord record(String uid, State state, Optional<String> cluster) {
        return CoordinatorHarness.record(uid, state, cluster, 1);
    }

    private static WorkloadSummary copy(String uid, String cluster, String phase) {
        return new WorkloadSummary(
                new WorkloadKey(cluster, "ml", "batch", "Job", uid),
                "batch/v1",
                "i-1",
                1,
                T0,
                Optional.of(uid),
                phase,
                List.of(phase),
                1,
                ResourceList.EMPTY,
                1,
                List.of(),
                NullNode.getInstance());
    }
}
