package dev.cartograph.broker.coordinate;

import static dev.cartograph.broker.coordinate.FairShareCoordinatorTest.gang;
import static dev.cartograph.broker.coordinate.FairShareCoordinatorTest.queue;
import static dev.cartograph.broker.coordinate.FairShareCoordinatorTest.queues;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Preemption on the coordinator (ADR 0006): a queue under its nominal quota takes back GPUs another queue borrows, on
 * exactly one cluster, and the victim waits and is placed again when room returns.
 */
@Timeout(60)
class PreemptionCoordinatorTest extends CoordinatorHarness {
    static final String H100 = FairShareCoordinatorTest.H100;
    static final String REASON = "preempted by team-a/a1 (queue team-a reclaiming 8 " + H100 + " lent to team-b)";

    /** east and west, 2 nodes × 8 free H100 each (32); team-a is promised 16, team-b nothing (it borrows all it uses). */
    private void fleetFilledByTeamB() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0, 0)),
                new Input.Cluster(cluster("west", 1, now, 0, 0)));
        step(queues(
                queue("team-a", "team-a", 1, "quota: {gpus: {" + H100 + ": 16}}"),
                queue("team-b", "team-b", 1, "preemption: Never")));
        for (int i = 1; i <= 4; i++) {
            step(new Input.HubChanged(gang("team-b", "b" + i, T0.plusSeconds(i), 8)));
        }
        // bin packing fills east first (equal scores go by name): b1, b2 on east; b3, b4 on west
        assertThat(where()).isEqualTo(Map.of("uid-b1", "east", "uid-b2", "east", "uid-b3", "west", "uid-b4", "west"));
    }

    @Test
    void aQueueUnderItsQuotaPreemptsExactlyOneBorrowingGangOnOneClusterAndTheVictimWaitsWithTheReason() {
        fleetFilledByTeamB();
        int before = sent.size();

        step(new Input.HubChanged(gang("team-a", "a1", T0.plusSeconds(10), 8)));

        // one 8-GPU victim suffices on either cluster: the names decide (east), then on east the gangs are equal
        // (none started, same queue and priority, placed at the same instant): the lower uid goes, b1
        PlacementRecord a1 = record("uid-a1");
        assertThat(a1.state()).isEqualTo(State.PLACED);
        assertThat(a1.cluster()).contains("east");
        PlacementRecord b1 = record("uid-b1");
        assertThat(b1.state()).isEqualTo(State.QUEUED);
        assertThat(b1.reason()).isEqualTo(REASON);
        assertThat(b1.cluster()).contains("east"); // its suspended copy stays there
        assertThat(b1.epoch()).isEqualTo(2);
        assertThat(b1.reserved()).isEmpty();
        for (String other : List.of("uid-b2", "uid-b3", "uid-b4")) {
            assertThat(record(other).state()).as(other).isEqualTo(State.PLACED);
        }
        // victim and preemptor were made durable in the same batch, victim first
        assertThat(records.subList(records.size() - 2, records.size()))
                .extracting(PlacementRecord::uid)
                .containsExactly("uid-b1", "uid-a1");
        // east is told to apply b1 suspended (its definition's suspend action: spec.suspend true) and a1
        List<Command> now = sent.subList(before, sent.size());
        Command.Apply suspended = applyOf(now, "uid-b1").orElseThrow();
        assertThat(suspended.epoch()).isEqualTo(2);
        assertThat(suspended.manifest().path("spec").path("suspend").asBoolean())
                .isTrue();
        assertThat(applyOf(now, "uid-a1")).isPresent();
        assertThat(commands).contains("apply uid-b1@east#2", "apply uid-a1@east#1");
        // waiting, it says both why it left and what it waits for now
        this.now = this.now.plusSeconds(11);
        step(new Input.Cluster(cluster("west", 2, this.now, 8, 8)));
        assertThat(record("uid-b1").reason())
                .startsWith(REASON + "; waits for capacity: east: ")
                .contains("west: ");
        assertThat(hubWrites)
                .contains("event b1 Preempted: " + REASON + "; its copy on east is suspended and it waits to be placed"
                        + " again")
                .contains("mark b1 {cartograph.dev/phase=Queued} reason=" + REASON);
    }

    @Test
    void theVictimIsPlacedAgainOnItsClusterWhenRoomReturnsAndItsCopyResumes() {
        fleetFilledByTeamB();
        step(new Input.HubChanged(gang("team-a", "a1", T0.plusSeconds(10), 8)));
        assertThat(record("uid-b1").state()).isEqualTo(State.QUEUED);
        int before = sent.size();

        now = now.plusSeconds(1);
        step(new Input.HubDeleted(gang("team-a", "a1", T0.plusSeconds(10), 8))); // a1's node on east is free again

        PlacementRecord b1 = record("uid-b1");
        assertThat(b1.state()).isEqualTo(State.PLACED);
        assertThat(b1.cluster()).contains("east");
        // same cluster: the suspended copy is updated in place, at a higher epoch (so that the agent's report of the
        // suspended copy, with no pods pending, does not count as accounting for what b1 reserves now)
        assertThat(b1.epoch()).isEqualTo(3);
        Command.Apply resumed =
                applyOf(sent.subList(before, sent.size()), "uid-b1").orElseThrow();
        // the hub's Job never says suspend; the agent's JSON merge patch would keep the copy's suspend: true unless the
        // manifest says false, which the definition's resume action does
        assertThat(resumed.manifest().path("spec").path("suspend").isBoolean()).isTrue();
        assertThat(resumed.manifest().path("spec").path("suspend").asBoolean()).isFalse();
        assertThat(commands).noneMatch(c -> c.startsWith("delete uid-b1"));
    }

    @Test
    void aVictimPlacedOnAnotherClusterMovesAtAHigherEpochAndItsSuspendedCopyIsDeleted() {
        fleetFilledByTeamB();
        step(new Input.HubChanged(gang("team-a", "a1", T0.plusSeconds(10), 8)));
        now = now.plusSeconds(1);
        // b4 on west finishes and goes: b1 fits there (east is full with b2 and a1)
        step(new Input.HubDeleted(gang("team-b", "b4", T0.plusSeconds(4), 8)));

        PlacementRecord b1 = record("uid-b1");
        assertThat(b1.state()).isEqualTo(State.PLACED);
        assertThat(b1.cluster()).contains("west");
        assertThat(b1.epoch()).isEqualTo(3);
        assertThat(commands).contains("delete uid-b1@east#3", "apply uid-b1@west#3");
    }

    @Test
    void aVictimWhoseCopyStillRunsPastTheHeartbeatTimeoutIsSentItsSuspendAgainAndNotOnceItStopped() {
        fleetFilledByTeamB();
        step(new Input.HubChanged(gang("team-a", "a1", T0.plusSeconds(10), 8)));
        step(new Input.Workload(copyOfB1(1).key(), Optional.of(copyOfB1(1)))); // east still runs b1's pod
        long suspends = commands.stream().filter("apply uid-b1@east#2"::equals).count();

        now = now.plusSeconds(20); // within the heartbeat timeout (30 s): waits for the agent
        step(new Input.Cluster(cluster("east", 2, now, 8, 8)), new Input.Tick());
        assertThat(commands.stream().filter("apply uid-b1@east#2"::equals)).hasSize((int) suspends);

        now = now.plusSeconds(15); // 35 s after it was sent, the copy still runs: sent again, suspended
        step(new Input.Cluster(cluster("east", 3, now, 8, 8)), new Input.Tick());
        assertThat(commands.stream().filter("apply uid-b1@east#2"::equals)).hasSize((int) suspends + 1);
        Command.Apply again = applyOf(sent, "uid-b1").orElseThrow();
        assertThat(again.manifest().path("spec").path("suspend").asBoolean()).isTrue();

        step(new Input.Workload(copyOfB1(0).key(), Optional.of(copyOfB1(0)))); // now it has stopped
        now = now.plusSeconds(40);
        step(new Input.Cluster(cluster("east", 4, now, 8, 8)), new Input.Tick());
        assertThat(commands.stream().filter("apply uid-b1@east#2"::equals)).hasSize((int) suspends + 1);
    }

    /** What east's agent reports of b1's copy, running {@code pods} pods. */
    private WorkloadSummary copyOfB1(int pods) {
        return new WorkloadSummary(
                new WorkloadKey("east", "team-b", "batch", "Job", "b1"),
                "batch/v1",
                "i-1",
                pods == 0 ? 2 : 1,
                now,
                Optional.of("uid-b1"),
                pods == 0 ? "Suspended" : "Running",
                List.of(pods == 0 ? "Suspended" : "Running"),
                pods,
                ResourceList.EMPTY,
                1,
                List.of(),
                NullNode.getInstance());
    }

    @Test
    void noQueueUnderItsQuotaMeansNoPreemptionAndTheGangWaitsForQuota() {
        fleetFilledByTeamB();
        // team-b's own new gang: team-b is promised nothing and may not preempt (Never): it just waits
        step(new Input.HubChanged(gang("team-b", "b5", T0.plusSeconds(10), 8)));
        assertThat(record("uid-b5").state()).isEqualTo(State.QUEUED);
        assertThat(where()).hasSize(4);
        assertThat(hubWrites).noneMatch(w -> w.contains("Preempted"));
    }

    @Test
    void aGangThatWouldNotFitEvenAfterPreemptionPreemptsNobody() {
        fleetFilledByTeamB();
        // 16 GPUs in one pod: no node has more than 8, whoever goes
        step(new Input.HubChanged(gang("team-a", "a1", T0.plusSeconds(10), 16)));
        assertThat(record("uid-a1").state()).isEqualTo(State.QUEUED);
        assertThat(where()).hasSize(4);
        assertThat(hubWrites).noneMatch(w -> w.contains("Preempted"));
    }

    private PlacementRecord record(String uid) {
        return coordinator.view().placements().get(uid);
    }

    /** Placed gangs by uid → cluster. */
    private Map<String, String> where() {
        Map<String, String> out = new TreeMap<>();
        coordinator.view().placements().values().stream()
                .filter(p -> p.state() == State.PLACED || p.state() == State.APPLIED)
                .forEach(p -> out.put(p.uid(), p.cluster().orElse("")));
        return out;
    }

    private static Optional<Command.Apply> applyOf(List<Command> commands, String uid) {
        return commands.stream()
                .filter(c -> c instanceof Command.Apply && c.placementId().equals(uid))
                .map(c -> (Command.Apply) c)
                .reduce((first, last) -> last);
    }
}
