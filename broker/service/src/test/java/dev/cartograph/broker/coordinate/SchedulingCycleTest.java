package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord.State;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The queue is tried again per changed cluster: only the gangs whose ask could fit the cluster that
 * changed are attempted, in queue order; the whole queue at most every minute. Clusters here are
 * 8-GPU H100 nodes ({@link CoordinatorHarness#cluster}); each job is one pod of {@code n} GPUs.
 */
@Timeout(60)
class SchedulingCycleTest extends CoordinatorHarness {
    @Test
    void aChangeOnOneClusterRetriesOnlyTheGangsThatCouldFitThere() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 8)),
                new Input.Cluster(cluster("west", 1, now, 8)));
        step(
                new Input.HubChanged(job("a1", "uid-a1", T0.minusSeconds(40), 8, "", "")),
                new Input.HubChanged(job("a2", "uid-a2", T0.minusSeconds(30), 8, "", "")),
                new Input.HubChanged(job("b1", "uid-b1", T0.minusSeconds(20), 4, "", "")),
                new Input.HubChanged(job("b2", "uid-b2", T0.minusSeconds(10), 4, "", "")));
        assertThat(coordinator.view().queue()).containsExactly("uid-a1", "uid-a2", "uid-b1", "uid-b2");

        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("east", 2, now, 4))); // 4 GPUs free on east
        // by hand: two asks (8 GPUs: a1, a2; 4 GPUs: b1, b2), each tested once on east alone; only 4 fits.
        // b1 takes the 4 GPUs; its ask, tested again on east, no longer fits: b2, a1 and a2 are not attempted
        assertThat(commands).containsExactly("apply uid-b1@east#1");
        assertThat(coordinator.view().queue()).containsExactly("uid-a1", "uid-a2", "uid-b2");
        assertThat(coordinator.cycle().last()).isEqualTo(new SchedulingCycle.Stats(false, 1, 2, 2, 1, 1));

        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("west", 2, now, 7))); // 1 GPU free on west: no ask fits there
        assertThat(coordinator.cycle().last()).isEqualTo(new SchedulingCycle.Stats(false, 1, 2, 2, 0, 0));
        assertThat(commands).containsExactly("apply uid-b1@east#1");
    }

    @Test
    void aGangThatFitsWhereARefusedGangWasReleasedIsPlaced() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        step(
                new Input.HubChanged(job("x", "uid-x", T0.minusSeconds(10), 8, "", "")),
                new Input.HubChanged(job("y", "uid-y", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-x@east#1"); // y waits: the only node is reserved for x

        step(new Input.Result(
                new CommandResult("east", "uid-x", 1, "apply", CommandResult.Outcome.REJECTED, "quota exceeded", now)));
        // east refused x: x is queued again at epoch 2 without east, its 8 GPUs released there; the retry attempts x
        // (fresh, first in queue order: east is left out, so it waits) and y, whose ask (8 GPUs) was tested on east
        assertThat(coordinator.view().placements().get("uid-x").state()).isEqualTo(State.QUEUED);
        assertThat(commands).containsExactly("apply uid-x@east#1", "delete uid-x@east#2", "apply uid-y@east#1");
        assertThat(coordinator.cycle().last()).isEqualTo(new SchedulingCycle.Stats(false, 1, 1, 1, 2, 1));
        assertThat(coordinator.view().queue()).containsExactly("uid-x");
    }

    @Test
    void gangsOfDifferentAsksArePlacedInQueueOrder() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 8, 8)));
        step(
                new Input.HubChanged(job("p3", "uid-p3", T0.minusSeconds(20), 4, "", "")),
                new Input.HubChanged(job("p4", "uid-p4", T0.minusSeconds(10), 2, "", "")),
                new Input.HubChanged(job("p1", "uid-p1", T0, 4, "cartograph.dev/priority: \"10\"", "")),
                new Input.HubChanged(job("p2", "uid-p2", T0.minusSeconds(30), 2, "", "")));
        assertThat(coordinator.view().queue()).containsExactly("uid-p1", "uid-p2", "uid-p3", "uid-p4");

        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("east", 2, now, 0, 8))); // east-n0 free: 8 GPUs
        // by hand, in queue order on 8 GPUs: p1 (4) leaves 4, p2 (2) leaves 2, p3 (4) does not fit (its ask, tested
        // again on east, says so: p3 is not attempted), p4 (2) leaves 0
        assertThat(commands).containsExactly("apply uid-p1@east#1", "apply uid-p2@east#1", "apply uid-p4@east#1");
        assertThat(coordinator.view().queue()).containsExactly("uid-p3");
        assertThat(coordinator.cycle().last().attempted()).isEqualTo(3);
    }

    @Test
    void aGangWhoseRetryThrowsIsFailedAloneAndTheGangsAfterItArePlaced() {
        AtomicInteger lookups = new AtomicInteger();
        // first's third look-up of its ConfigMap breaks: in the retry, after its record and reservation
        findFails = name -> name.equals("cfg-first") && lookups.incrementAndGet() == 3;
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 8, 8)));
        step(
                new Input.HubChanged(withConfig(
                        job("first", "uid-first", T0.minusSeconds(9), 8, "cartograph.dev/priority: \"5\"", ""))),
                new Input.HubChanged(job("second", "uid-second", T0, 8, "", "")),
                new Input.HubChanged(job("third", "uid-third", T0.plusSeconds(1), 4, "", "")));
        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("east", 2, now, 0, 0))); // 16 GPUs free on two nodes
        // by hand: first is placed on east-n0, then its apply cannot be built: that is undone, it is failed and n0 is
        // free; second takes n0 (the tightest, by name among equals), third takes 4 of n1's 8
        assertThat(coordinator.view().placements().get("uid-first").state()).isEqualTo(State.FAILED);
        assertThat(coordinator.view().placements().get("uid-first").reason()).startsWith("could not be planned: ");
        assertThat(coordinator.view().placements().get("uid-second").reserved()).containsOnlyKeys("east-n0");
        assertThat(coordinator.view().placements().get("uid-third").reserved()).containsOnlyKeys("east-n1");
        assertThat(coordinator.view().queue()).isEmpty();
        assertThat(commands).containsExactly("apply uid-second@east#1", "apply uid-third@east#1");
    }

    @Test
    void aWaitingGangIsNeitherTriedNorRewrittenWhileChangesCannotLetItFit() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 8)),
                new Input.Cluster(cluster("west", 1, now, 8)),
                new Input.HubChanged(job("w", "uid-w", T0, 8, "", "")));
        Decision first = coordinator.view().decisions().get("uid-w");
        int writes = hubWrites.size();
        for (int i = 2; i < 22; i++) { // 20 changes on east and west, each leaving 1 to 4 GPUs free: never 8
            now = now.plusSeconds(1);
            step(new Input.Cluster(cluster(i % 2 == 0 ? "east" : "west", i, now, 4 + i % 4)));
            assertThat(coordinator.cycle().last().attempted()).isZero();
        }
        assertThat(records).filteredOn(r -> r.uid().equals("uid-w")).hasSize(1); // written once, when it entered
        assertThat(hubWrites).hasSize(writes); // no mark, no event since
        assertThat(coordinator.view().decisions().get("uid-w")).isSameAs(first); // not even planned again
    }

    @Test
    void theWholeQueueIsTriedOnTheTickAtMostOnceAMinute() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 8, 8)), new Input.Tick());
        assertThat(coordinator.cycle().last().full()).isTrue(); // becoming active tries everything
        step(new Input.HubChanged(job("w", "uid-w", T0, 8, "", "")));
        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("east", 2, now, 8, 7)));
        SchedulingCycle.Stats selective = coordinator.cycle().last();
        assertThat(selective).isEqualTo(new SchedulingCycle.Stats(false, 1, 1, 1, 0, 0));

        now = T0.plusSeconds(30);
        step(new Input.Cluster(cluster("east", 3, now, 8, 7)), new Input.Tick()); // nothing changed, 30 s after
        assertThat(coordinator.cycle().last()).isSameAs(selective);

        now = T0.plusSeconds(60);
        step(new Input.Cluster(cluster("east", 4, now, 8, 7)), new Input.Tick()); // a minute after: everything
        assertThat(coordinator.cycle().last()).isEqualTo(new SchedulingCycle.Stats(true, 0, 1, 1, 0, 0));
    }

    @Test
    void aWaitingGangWhoseSpecChangedIsTriedAgainOnTheWholeFleetWithoutACapacityChange() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 4))); // 4 GPUs free
        step(new Input.HubChanged(job("w", "uid-w", T0, 8, "", "")));
        assertThat(coordinator.view().queue()).containsExactly("uid-w"); // 8 do not fit in 4

        step(new Input.HubChanged(job("w", "uid-w", T0, 4, "", ""))); // the user asks for 4: no cluster changed
        assertThat(commands).containsExactly("apply uid-w@east#1");
        assertThat(coordinator.cycle().last()).isEqualTo(new SchedulingCycle.Stats(false, 0, 0, 0, 1, 1));
    }

    @Test
    void oneCycleEndsEveryAttemptOneWayOrAnotherInQueueOrder() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0))); // one node, 8 GPUs free
        com.fasterxml.jackson.databind.node.ObjectNode suspended =
                (com.fasterxml.jackson.databind.node.ObjectNode) job("held", "uid-5", T0.minusSeconds(10), 8, "", "");
        suspended.with("spec").put("suspend", true);
        com.fasterxml.jackson.databind.JsonNode needs =
                withConfig(job("needs", "uid-4", T0.minusSeconds(20), 8, "", ""), "absent");
        dependencies.remove("ml/ConfigMap/absent"); // the hub does not have it
        step(
                new Input.HubChanged(job("fits", "uid-1", T0.minusSeconds(50), 8, "", "")),
                new Input.HubChanged(job("nine", "uid-2", T0.minusSeconds(40), 9, "", "")), // no 9-GPU node
                new Input.HubChanged(yaml("""
                        apiVersion: kubeflow.org/v1
                        kind: PyTorchJob
                        metadata: {name: bare, namespace: ml, uid: uid-3, creationTimestamp: "2026-12-02T11:59:30Z"}
                        """)), // no spec: it cannot be read
                new Input.HubChanged(needs),
                new Input.HubChanged(suspended),
                new Input.HubChanged(job("late", "uid-6", T0, 8, "", ""))); // fits, but fits took the node
        // by hand, in queue order (oldest first): placed; waits (no node has 9 GPUs); failed; waits for its
        // ConfigMap; held while suspended; waits (the one node is taken)
        assertThat(decisions)
                .containsExactly(
                        "placed after 1",
                        "waiting after 2",
                        "failed after 3",
                        "waiting_for_dependency after 4",
                        "suspended after 5",
                        "waiting after 6");
        assertThat(commands).containsExactly("apply uid-1@east#1");
        assertThat(coordinator.view().queue()).containsExactly("uid-2", "uid-4", "uid-6");
        assertThat(coordinator.view().placements().get("uid-3").state()).isEqualTo(State.FAILED);
        assertThat(coordinator.view().placements().get("uid-5").state()).isEqualTo(State.SUSPENDED);
        assertThat(coordinator.cycle().last()).isEqualTo(new SchedulingCycle.Stats(false, 0, 2, 0, 6, 1));
    }
}
