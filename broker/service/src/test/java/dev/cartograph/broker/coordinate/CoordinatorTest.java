package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The coordinator on its own: inputs in, records, commands and hub writes out (no Kafka, no API server). */
@Timeout(60)
class CoordinatorTest extends CoordinatorHarness {
    @Test
    void theQueueIsOrderedByPriorityThenSubmissionTimeAndRetriedWhenCapacityReturns() throws Exception {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 8)));
        step(
                new Input.HubChanged(job("a", "uid-a", T0.minusSeconds(10), 8, "", "")),
                new Input.HubChanged(job("b", "uid-b", T0.minusSeconds(5), 8, "cartograph.dev/priority: \"10\"", "")),
                new Input.HubChanged(job("c", "uid-c", T0.minusSeconds(1), 8, "", "high")),
                new Input.HubChanged(job("d", "uid-d", T0.minusSeconds(20), 8, "", "")));
        // by hand: c (class high = 100), b (annotation 10), then d and a by submission time
        assertThat(coordinator.view().queue()).containsExactly("uid-c", "uid-b", "uid-d", "uid-a");
        assertThat(coordinator.view().placements().get("uid-a").reason())
                .contains("east: needs 1 pods × 8 GPUs", "largest free block 0");
        assertThat(hubWrites)
                .anySatisfy(w -> assertThat(w)
                        .startsWith("mark a {cartograph.dev/cluster=, cartograph.dev/phase=Queued} reason="));
        assertThat(commands).isEmpty();

        now = now.plusSeconds(1);
        step(new Input.Cluster(
                cluster("east", 2, now, 0))); // the node's 8 GPUs are free again: one of them fits, the first in line
        assertThat(commands).containsExactly("apply uid-c@east#1");
        assertThat(coordinator.view().queue()).containsExactly("uid-b", "uid-d", "uid-a");
        assertThat(records.get(records.size() - 1).state()).isEqualTo(PlacementRecord.State.PLACED);
        assertThat(records.get(records.size() - 1).reserved()).containsOnlyKeys("east-n0");
    }

    @Test
    void anApplyNobodyConfirmedIsSentAgainAndARefusalSendsTheGangElsewhereOrLetsItWaitWithTheReason() throws Exception {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        step(
                new Input.HubChanged(job("x", "uid-x", T0, 8, "", "")),
                new Input.HubChanged(job("y", "uid-y", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-x@east#1", "apply uid-y@east#1");

        now = now.plusSeconds(31);
        step(
                new Input.Cluster(cluster("east", 2, now, 0, 0)),
                new Input.Result(
                        new CommandResult("east", "uid-y", 1, "apply", CommandResult.Outcome.APPLIED, "", now)),
                new Input.Tick());
        assertThat(commands).containsExactly("apply uid-x@east#1", "apply uid-y@east#1", "apply uid-x@east#1");
        assertThat(coordinator.view().placements().get("uid-y").state()).isEqualTo(PlacementRecord.State.APPLIED);

        step(new Input.Result(new CommandResult(
                "east",
                "uid-x",
                1,
                "apply",
                CommandResult.Outcome.REJECTED,
                "namespace ml is not allowed (allowed: team-a)",
                now)));
        // east, the only cluster, refused x: it is queued again at the next epoch without east, its copy there fenced
        PlacementRecord x = coordinator.view().placements().get("uid-x");
        assertThat(x.state()).isEqualTo(PlacementRecord.State.QUEUED);
        assertThat(x.epoch()).isEqualTo(2);
        assertThat(x.refusals())
                .containsExactly(java.util.Map.entry("east", "namespace ml is not allowed (allowed: team-a)"));
        assertThat(commands).endsWith("delete uid-x@east#2");
        assertThat(hubWrites)
                .contains("event x Refused: east refused it (namespace ml is not allowed (allowed: team-a)); placing it"
                        + " on another cluster, at epoch 2");
        assertThat(coordinator.view().fleet().reservations()).containsOnlyKeys("uid-y"); // x's GPUs are free again
        assertThat(hubWrites)
                .contains(
                        "mark x {cartograph.dev/cluster=, cartograph.dev/phase=Queued} reason=every cluster that could"
                                + " take it refused it: east (namespace ml is not allowed (allowed: team-a)). Change the object"
                                + " to try them again");
    }

    @Test
    void aStaleCopyOnAnotherClusterIsFencedAndAnInactiveInstanceDecidesNothing() throws Exception {
        step(new Input.Cluster(cluster("east", 1, now, 0)), new Input.HubChanged(job("z", "uid-z", T0, 8, "", "")));
        assertThat(commands).isEmpty(); // not caught up yet: nothing is decided
        assertThat(coordinator.view().active()).isFalse();
        step(new Input.CaughtUp());
        assertThat(commands).containsExactly("apply uid-z@east#1");
        var summary = new dev.cartograph.protocol.WorkloadSummary(
                new dev.cartograph.protocol.WorkloadKey("west", "ml", "batch", "Job", "z"),
                "batch/v1",
                "inc",
                1,
                now,
                Optional.of("uid-z"),
                "Running",
                List.of("Running"),
                1,
                res("nvidia.com/gpu", "8"),
                0,
                List.of(),
                null);
        step(new Input.Workload(summary.key(), Optional.of(summary)));
        assertThat(commands).containsExactly("apply uid-z@east#1", "delete uid-z@west#1");
        step(new Input.Workload(summary.key(), Optional.of(summary)));
        assertThat(commands).hasSize(2); // fenced once per cluster and epoch
    }
}
