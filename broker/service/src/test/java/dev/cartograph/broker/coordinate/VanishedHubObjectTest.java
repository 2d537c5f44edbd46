package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 33, finding 5: a hub object that vanishes while no leader acts (deleted before the broker's finalizer landed,
 * while the leader was changing) leaves a placement record and a copy behind. Followers forget the object and the new
 * leader walked only the objects it knew, so the copy ran on for good. Now the leader lists the hub
 * ({@link Input.HubListed}) and deletes the copy of a placement whose object two listings in a row did not have; and a
 * copy nobody claims is fenced only once the hub's objects of its kind are all known.
 */
@Timeout(60)
class VanishedHubObjectTest extends CoordinatorHarness {
    private static final WorkloadKey COPY = new WorkloadKey("east", "ml", "batch", "Job", "j");

    private WorkloadSummary runningCopy() {
        return new WorkloadSummary(
                COPY,
                "batch/v1",
                "i-1",
                1,
                now,
                Optional.of("j"),
                "Running",
                List.of("Running"),
                1,
                ResourceList.EMPTY,
                1,
                List.of(),
                NullNode.getInstance());
    }

    /** Read as history by a new leader: east runs j's copy at epoch 1; the hub object is gone, never seen deleted. */
    private void leaderAfterTheObjectVanished(boolean withRecord) {
        if (withRecord) {
            step(new Input.Placement("j", Optional.of(record("j", State.APPLIED, Optional.of("east"), 1))));
        }
        step(
                new Input.Cluster(
                        cluster("east", 1, now, List.of(new PlacementReport("j", 1, 0, ResourceList.EMPTY)), 8)),
                new Input.Workload(COPY, Optional.of(runningCopy())),
                new Input.CaughtUp());
    }

    @Test
    void aPlacementWhoseHubObjectTwoListingsMissedHasItsCopyDeletedAndIsForgotten() {
        leaderAfterTheObjectVanished(true);
        step(new Input.Tick());
        step(new Input.HubListed(Set.of("batch/Job")), new Input.Tick());
        assertThat(commands).as("one listing without it: it may be on its way").isEmpty();
        now = now.plusSeconds(30);
        step(new Input.HubListed(Set.of("batch/Job")), new Input.Tick());
        assertThat(commands).containsExactly("delete j@east#1");
        assertThat(coordinator.view().placements().get("j").state()).isEqualTo(State.DELETING);
        step(new Input.Result(new CommandResult("east", "j", 1, "delete", CommandResult.Outcome.DELETED, "", now)));
        assertThat(commands).containsExactly("delete j@east#1", "forget j");
        assertThat(coordinator.view().placements()).doesNotContainKey("j");
    }

    @Test
    void aPlacementOfAKindTheHubWatchCouldNotListIsLeftAlone() {
        leaderAfterTheObjectVanished(true);
        for (int i = 0; i < 3; i++) { // the hub's Jobs were never listed (their watch failed): unknown is not gone
            now = now.plusSeconds(30);
            step(new Input.HubListed(Set.of("kubeflow.org/PyTorchJob")), new Input.Tick());
        }
        assertThat(commands).isEmpty();
        assertThat(coordinator.view().placements().get("j").state()).isEqualTo(State.APPLIED);
    }

    @Test
    void aCopyNoPlacementClaimsIsFencedOnlyOnceEveryHubObjectOfItsKindIsKnown() {
        leaderAfterTheObjectVanished(false);
        step(new Input.Tick());
        now = now.plusSeconds(1);
        step(new Input.Tick());
        assertThat(commands).as("its hub object may not have been read yet").isEmpty();
        step(new Input.HubListed(Set.of("batch/Job")), new Input.Tick());
        assertThat(commands).containsExactly("delete j@east#" + Long.MAX_VALUE);
    }
}
