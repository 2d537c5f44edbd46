package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 33, finding 1: a placement whose record is lost (a standby that could not read it, a placements topic
 * recreated, an unclean leader election) is never killed nor placed twice for it. A new leader that reads no record of
 * a gang running on east — its agent reports the copy, its hub object still says east and the epoch — keeps it there;
 * before the fix it queued the gang again at epoch 1, placed it on west and fenced east's running copy at epoch ∞. And
 * an accident while handling a running gang's change no longer fails it (the next tick deleted its copy).
 * Two clusters of one 8-GPU node each; east's node is full with the gang, west's is free.
 */
@Timeout(60)
class LostRecordTest extends CoordinatorHarness {

    /** Job j asking for 8 GPUs, with the marks the broker left on it when it placed it on east at {@code epoch}. */
    private static ObjectNode markedJob(String phase, long epoch, boolean finalizer) {
        ObjectNode j = (ObjectNode) job("j", "uid-j", T0, 8, "", "");
        ObjectNode meta = j.with("metadata");
        meta.with("labels").put(MetadataKeys.CLUSTER_LABEL, "east").put(MetadataKeys.PHASE_LABEL, phase);
        meta.with("annotations").put(MetadataKeys.EPOCH_ANNOTATION, Long.toString(epoch));
        if (finalizer) {
            meta.putArray("finalizers").add(MetadataKeys.FINALIZER);
        }
        return j;
    }

    /** What east's agent reports of j's running copy. */
    private WorkloadSummary runningCopyOnEast() {
        return new WorkloadSummary(
                new WorkloadKey("east", "ml", "batch", "Job", "j"),
                "batch/v1",
                "i-1",
                1,
                now,
                Optional.of("uid-j"),
                "Running",
                List.of("Running"),
                1,
                ResourceList.EMPTY,
                1,
                List.of(),
                NullNode.getInstance());
    }

    /** East's node is full with j's copy at {@code epoch} (listed in its summary); west's is free. */
    private void fleetWithJRunningOnEast(long epoch, long sequence) {
        step(
                new Input.Cluster(cluster(
                        "east", sequence, now, List.of(new PlacementReport("uid-j", epoch, 0, ResourceList.EMPTY)), 8)),
                new Input.Cluster(cluster("west", sequence, now, 0)),
                new Input.Workload(runningCopyOnEast().key(), Optional.of(runningCopyOnEast())));
    }

    private PlacementRecord j() {
        return coordinator.view().placements().get("uid-j");
    }

    @Test
    void aRunningGangWhoseRecordWasLostKeepsItsCopyAndIsNotPlacedAgain() {
        // read as history by a new leader: the summaries, the copy, the hub object; no placement record at all
        fleetWithJRunningOnEast(3, 1);
        step(new Input.HubChanged(markedJob("Running", 3, true)));
        step(new Input.CaughtUp());
        for (int t = 0; t < 12; t++) { // two minutes of ticks and summaries: past the failover timeout
            now = now.plusSeconds(10);
            fleetWithJRunningOnEast(3, 2 + t);
            step(new Input.Tick());
        }
        assertThat(commands).as("nothing fenced, nothing placed again").isEmpty();
        assertThat(j().state()).isEqualTo(State.APPLIED);
        assertThat(j().cluster()).contains("east");
        assertThat(j().epoch()).isEqualTo(3);
        assertThat(records).anySatisfy(r -> assertThat(r.uid()).isEqualTo("uid-j")); // durable again
        assertThat(coordinator.view().recovered())
                .as("counted: an alarm in health and metrics")
                .isEqualTo(1);
        assertThat(hubWrites)
                .contains("event j Recovered: the broker had no record of this placement (lost from its topic); its"
                        + " copy on east is kept at epoch 3");
    }

    @Test
    void theEpochOfARecoveredGangIsNoLowerThanItsCopysWhenTheHubMarkLagged() {
        fleetWithJRunningOnEast(4, 1); // the copy runs at epoch 4; the hub's epoch mark still says 3
        step(new Input.HubChanged(markedJob("Running", 3, true)), new Input.CaughtUp());
        assertThat(j().epoch()).isEqualTo(4);
        assertThat(commands).isEmpty();
    }

    @Test
    void aGangWhoseOnlyTraceIsItsHubMarksIsAppliedThereAgainAtItsEpoch() {
        step(
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.Cluster(cluster("west", 1, now, 0)),
                new Input.HubChanged(markedJob("Placed", 2, true)),
                new Input.CaughtUp());
        // its apply may never have reached east: sent again there at its own epoch (the agent applies idempotently)
        assertThat(commands).containsExactly("apply uid-j@east#2");
        assertThat(j().state()).isEqualTo(State.PLACED);
        assertThat(j().epoch()).isEqualTo(2);
    }

    @Test
    void copiedMarksWithoutTheBrokersFinalizerPlaceNothingAndTheNewEpochIsAboveThem() {
        // a user applied a dump of another object: the broker's labels came along, its finalizer did not
        step(
                new Input.Cluster(cluster("east", 1, now, 8)),
                new Input.Cluster(cluster("west", 1, now, 0)),
                new Input.HubChanged(markedJob("Placed", 5, false)),
                new Input.CaughtUp());
        assertThat(commands).containsExactly("apply uid-j@west#6"); // planned as new: east is full
    }

    @Test
    void aDeletedGangWhoseRecordWasLostHasItsCopyDeletedBeforeItsFinalizerIsReleased() {
        fleetWithJRunningOnEast(3, 1);
        ObjectNode deleting = markedJob("Running", 3, true);
        deleting.with("metadata").put("deletionTimestamp", T0.plusSeconds(60).toString());
        step(new Input.HubChanged(deleting), new Input.CaughtUp());
        assertThat(commands).containsExactly("delete uid-j@east#3");
        assertThat(hubWrites).doesNotContain("unfinalize j");
        step(new Input.Result(new CommandResult("east", "uid-j", 3, "delete", CommandResult.Outcome.DELETED, "", now)));
        assertThat(hubWrites).contains("unfinalize j");
    }

    @Test
    void aRunningGangWhoseChangeCannotBeHandledKeepsRunningWhereItIs() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.Cluster(cluster("west", 1, now, 0)));
        JsonNode placed = withConfig(job("j", "uid-j", T0, 8, "", ""));
        step(new Input.HubChanged(placed));
        String first = commands.get(0);
        String cluster = first.substring(first.indexOf('@') + 1, first.indexOf('#'));
        step(new Input.Result(new CommandResult(cluster, "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        findFails = name -> name.equals("cfg-j"); // from now on the hub client breaks on j's ConfigMap
        ObjectNode changed = placed.deepCopy();
        ((ObjectNode) changed.with("spec")
                        .with("template")
                        .with("spec")
                        .withArray("containers")
                        .get(0))
                .putArray("env")
                .addObject()
                .put("name", "X")
                .put("value", "1");
        step(new Input.HubChanged(changed));
        for (int t = 0; t < 3; t++) {
            now = now.plusSeconds(10);
            step(new Input.Tick());
        }
        assertThat(coordinator.view().quarantined()).isEqualTo(1);
        assertThat(j().state()).isEqualTo(State.APPLIED);
        assertThat(j().cluster()).contains(cluster);
        assertThat(commands).as("its copy is neither deleted nor replaced").containsExactly(first);
        assertThat(hubWrites)
                .anySatisfy(w -> assertThat(w)
                        .startsWith("event j Invalid: could not be handled: ")
                        .endsWith("; it stays on " + cluster + " as it was (epoch 1)"));
        assertThat(hubWrites).noneMatch(w -> w.contains("Failed"));
    }
}
