package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.PlacementReport;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A gang applied on a member whose copy disappears there (deleted by hand, or fenced by an agent cut
 * off from Kafka, ADR 0005) is placed again; a finished one, a brief gap, or a copy its agent never
 * listed is not. Heartbeat timeout 30 s, failover timeout 60 s (the harness's settings).
 */
@Timeout(60)
class MissingCopyTest extends CoordinatorHarness {
    private long sequence = 1;

    /** Summaries from east (full after the gang: 8 of 8 GPUs used) and west (8 free), every 10 s for {@code seconds}. */
    private void summaries(int seconds, boolean eastListsTheCopy) {
        for (int t = 0; t < seconds; t += 10) {
            now = now.plusSeconds(10);
            List<PlacementReport> east =
                    eastListsTheCopy ? List.of(new PlacementReport("uid-j", 1, 0, ResourceList.EMPTY)) : List.of();
            step(
                    new Input.Cluster(cluster("east", ++sequence, now, east, eastListsTheCopy ? 8 : 0)),
                    new Input.Cluster(cluster("west", ++sequence, now, 0)),
                    new Input.Tick());
        }
    }

    private void placedOnEastAndListed() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", ++sequence, now, 0)),
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-j@east#1");
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        summaries(90, true); // past the failover timeout since becoming active, listed all along
        assertThat(commands).containsExactly("apply uid-j@east#1");
    }

    @Test
    void aGangWhoseCopyVanishedFromItsMemberIsPlacedAgain() {
        placedOnEastAndListed();
        summaries(20, false); // unlisted for 20 s: under the heartbeat timeout, nothing yet
        assertThat(commands).containsExactly("apply uid-j@east#1");
        summaries(20, false); // 40 s unlisted
        // fenced at epoch 2 (a copy that comes back is deleted), then placed again wherever it fits: east has room
        // again
        assertThat(commands).containsExactly("apply uid-j@east#1", "delete uid-j@east#2", "apply uid-j@east#2");
        assertThat(coordinator.view().placements().get("uid-j").epoch()).isEqualTo(2);
        assertThat(hubWrites).anySatisfy(w -> assertThat(w).startsWith("event j Requeued: its copy on east is gone"));
    }

    /**
     * Issue 33, finding 3: east's agent restarted and could not watch Jobs (discovery answered 429); it says so, so the
     * copy it no longer lists is not taken for gone — before, the running gang was placed again after two heartbeat
     * timeouts.
     */
    @Test
    void aCopyOfAKindItsAgentSaysItCannotWatchIsNotPlacedAgain() {
        placedOnEastAndListed();
        for (int t = 0; t < 90; t += 10) {
            now = now.plusSeconds(10);
            dev.cartograph.protocol.ClusterSummary full = cluster("east", ++sequence, now, 8);
            step(
                    new Input.Cluster(new dev.cartograph.protocol.ClusterSummary(
                            full.cluster(),
                            full.labels(),
                            full.agentVersion(),
                            "i-2", // a new incarnation
                            full.sequence(),
                            full.heartbeat(),
                            full.nodes(),
                            List.of(),
                            List.of(new dev.cartograph.protocol.UnwatchedKind(
                                    "batch/v1", "Job", "discovery answered 429 Too Many Requests")))),
                    new Input.Cluster(cluster("west", ++sequence, now, 0)),
                    new Input.Tick());
        }
        assertThat(commands).containsExactly("apply uid-j@east#1");
        assertThat(coordinator.view().placements().get("uid-j").state()).isEqualTo(State.APPLIED);
    }

    @Test
    void aFinishedGangWhoseCopyWasCleanedUpOnItsMemberIsNotRunAgain() {
        placedOnEastAndListed();
        ObjectNode completed = (ObjectNode) job("j", "uid-j", T0, 8, "", "");
        completed.with("metadata").with("labels").put(dev.cartograph.protocol.MetadataKeys.PHASE_LABEL, "Completed");
        step(new Input.HubChanged(completed));
        summaries(120, false);
        assertThat(commands).containsExactly("apply uid-j@east#1");
        assertThat(coordinator.view().placements().get("uid-j").state()).isEqualTo(State.APPLIED);
    }

    @Test
    void aCopyMissingFromOneSummaryOnlyStaysWhereItIs() {
        placedOnEastAndListed();
        summaries(20, false);
        summaries(60, true);
        summaries(20, false);
        assertThat(commands).containsExactly("apply uid-j@east#1");
    }

    @Test
    void aCopyItsAgentNeverListedIsNotTakenBack() { // e.g. the agent may create the kind but not watch it
        JsonNode j = job("j", "uid-j", T0, 8, "", "");
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", ++sequence, now, 0)), new Input.HubChanged(j));
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        summaries(180, false);
        assertThat(commands).containsExactly("apply uid-j@east#1");
    }
}
