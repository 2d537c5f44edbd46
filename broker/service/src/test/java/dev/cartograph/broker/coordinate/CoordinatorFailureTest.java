package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.dependency.Dependency;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The coordinator keeps its promises when inputs are hostile and its writes fail (issue 11; each test failed before its fix). */
@Timeout(60)
class CoordinatorFailureTest extends CoordinatorHarness {

    @Test
    void anAbsurdQuantityFailsThatObjectWithAReasonAndTheNextGangIsStillPlaced() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        step(new Input.HubChanged(yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: huge, namespace: ml, uid: uid-huge, creationTimestamp: "2026-12-02T11:00:00Z"}
                spec:
                  template:
                    spec:
                      containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "1e19"}}}]
                """)), new Input.HubChanged(job("ok", "uid-ok", T0, 8, "", "")));
        PlacementRecord huge = coordinator.view().placements().get("uid-huge");
        assertThat(huge.state()).isEqualTo(State.FAILED);
        assertThat(huge.reason()).contains("nvidia.com/gpu");
        assertThat(hubWrites).anySatisfy(w -> assertThat(w).startsWith("event huge Invalid: "));
        assertThat(commands).containsExactly("apply uid-ok@east#1");
        assertThat(coordinator.view().quarantined()).isZero(); // a reason, not an accident
    }

    @Test
    void anObjectWithoutASpecFailsWithThatReasonInsteadOfBeingPlacedEmpty() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        step(new Input.HubChanged(yaml("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: bare, namespace: ml, uid: uid-bare}
                """)));
        assertThat(coordinator.view().placements().get("uid-bare").state()).isEqualTo(State.FAILED);
        assertThat(coordinator.view().placements().get("uid-bare").reason())
                .isEqualTo("field spec: missing or empty; there is nothing to place");
        assertThat(commands).isEmpty();
    }

    @Test
    void aGangAskingForMorePodsThanTheBudgetFailsWithTooManyPodsToPlan() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        step(new Input.HubChanged(yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: wide, namespace: ml, uid: uid-wide}
                spec:
                  replicas: 1000000
                  selector: {matchLabels: {app: wide}}
                  template:
                    metadata: {labels: {app: wide}}
                    spec:
                      containers: [{name: c, image: x, resources: {requests: {cpu: 10m}}}]
                """)));
        PlacementRecord wide = coordinator.view().placements().get("uid-wide");
        assertThat(wide.state()).isEqualTo(State.FAILED);
        assertThat(wide.reason())
                .isEqualTo("too many pods to plan: the gang asks for 1000000 pods; the broker plans at most 10000 per "
                        + "gang (max-pods-per-gang)");
    }

    @Test
    void anInputWhoseHandlingThrowsIsUndoneAloneAndTheLoopGoesOn() {
        AtomicInteger lookups = new AtomicInteger();
        // the sixth look-up of ConfigMap shared breaks: a's and b's placements looked it up twice each; when it
        // changes, the first of them has its apply (with the new ConfigMap) staged, the second's look-up breaks
        findFails = name -> name.equals("shared") && lookups.incrementAndGet() == 6;
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0, 0)));
        step(
                new Input.HubChanged(withConfig(job("a", "uid-a", T0, 8, "", ""), "shared")),
                new Input.HubChanged(withConfig(job("b", "uid-b", T0, 8, "", ""), "shared")));
        assertThat(commands).containsExactly("apply uid-a@east#1", "apply uid-b@east#1");
        step(
                new Input.DependencyChanged(Dependency.Kind.CONFIG_MAP, "ml", "shared"),
                new Input.HubChanged(job("c", "uid-c", T0, 8, "", "")));
        assertThat(coordinator.view().quarantined()).isEqualTo(1);
        // nothing of the input that broke went out, not even the apply staged before it broke; the next one was handled
        assertThat(commands).containsExactly("apply uid-a@east#1", "apply uid-b@east#1", "apply uid-c@east#1");
        assertThat(coordinator.view().placements().get("uid-a").state()).isEqualTo(State.PLACED);
        assertThat(coordinator.view().placements().get("uid-b").state()).isEqualTo(State.PLACED);
    }

    @Test
    void aHubWriteThatThrowsAfterItsBatchCommittedIsLoggedAndTheRestGoesOn() {
        markFails = name -> name.equals("bomb"); // the hub client breaks on bomb's marks, once the batch is durable
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        step(
                new Input.HubChanged(job("bomb", "uid-bomb", T0, 8, "", "")),
                new Input.HubChanged(job("next", "uid-next", T0, 8, "", "")));
        assertThat(coordinator.view().quarantined()).isZero();
        assertThat(coordinator.view().placements().get("uid-bomb").state()).isEqualTo(State.PLACED);
        assertThat(coordinator.view().placements().get("uid-next").state()).isEqualTo(State.PLACED);
        assertThat(commands).containsExactly("apply uid-bomb@east#1", "apply uid-next@east#1");
        assertThat(hubWrites)
                .contains(
                        "event bomb Placed: placed on east (epoch 1): fits: 1 pods on 1 nodes",
                        "mark next {cartograph.dev/cluster=east, cartograph.dev/phase=Placed} reason=");
    }

    @Test
    void aGangThatThrowsWhileTheQueueIsRetriedIsUndoneAndFailedAloneAndTheRestOfTheQueueIsPlaced() {
        AtomicInteger lookups = new AtomicInteger();
        // first's third look-up of its ConfigMap breaks: in the retry, after its record and reservation
        findFails = name -> name.equals("cfg-first") && lookups.incrementAndGet() == 3;
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 8, 8)));
        step(
                new Input.HubChanged(withConfig(
                        job("first", "uid-first", T0.minusSeconds(9), 8, "cartograph.dev/priority: \"5\"", ""))),
                new Input.HubChanged(job("second", "uid-second", T0, 8, "", "")));
        assertThat(coordinator.view().queue()).containsExactly("uid-first", "uid-second");
        now = now.plusSeconds(11);
        step(new Input.Cluster(
                cluster("east", 2, now, 8, 0))); // 8 GPUs free: first in line would get them, but it breaks
        assertThat(coordinator.view().placements().get("uid-first").state()).isEqualTo(State.FAILED);
        assertThat(coordinator.view().placements().get("uid-first").reason()).startsWith("could not be planned: ");
        assertThat(coordinator.view().placements().get("uid-second").state()).isEqualTo(State.PLACED);
        assertThat(commands).containsExactly("apply uid-second@east#1");
    }

    @Test
    void anAgentWhoseClockIsTenMinutesBehindStaysReadyWhileItsSummariesArrive() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now.minusSeconds(600), 0)),
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-j@east#1");
        step(new Input.Result(new CommandResult(
                "east", "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now.minusSeconds(600))));
        for (int i = 2; i < 20; i++) { // three minutes, a summary every 10 s, past the 60 s failover timeout
            now = now.plusSeconds(10);
            step(new Input.Cluster(cluster("east", i, now.minusSeconds(600), 8)), new Input.Tick());
        }
        assertThat(coordinator.view().placements().get("uid-j").cluster()).contains("east");
        assertThat(coordinator.view().placements().get("uid-j").epoch()).isEqualTo(1);
        assertThat(commands).containsExactly("apply uid-j@east#1");
    }

    @Test
    void failoverMakesTheRequeuedRecordDurableBeforeItFencesTheOldCopy() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-j@east#1");
        placementsDown = true;
        now = now.plusSeconds(120); // east silent past the failover timeout
        step(new Input.Tick());
        assertThat(commands).containsExactly("apply uid-j@east#1"); // nothing fenced while the re-queue is not durable
        assertThat(coordinator.view().fleet().reservations()).containsKey("uid-j");
        placementsDown = false;
        now = now.plusSeconds(1);
        step(new Input.Tick());
        assertThat(commands).containsExactly("apply uid-j@east#1", "delete uid-j@east#2");
        assertThat(records.get(records.size() - 1).state()).isEqualTo(State.QUEUED);
        assertThat(records.get(records.size() - 1).epoch()).isEqualTo(2);
    }

    @Test
    void aBatchKafkaRefusesIsUndoneWholeAndItsGangsArePlacedOnceWhenKafkaIsBack() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        int writes = hubWrites.size();
        placementsDown = true;
        step(new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        // nothing of the batch went out: no record, no command, no hub write; its node is free again
        assertThat(records).isEmpty();
        assertThat(commands).isEmpty();
        assertThat(hubWrites).hasSize(writes);
        assertThat(coordinator.view().placements()).isEmpty();
        assertThat(coordinator.view().fleet().reservations()).isEmpty();
        now = now.plusSeconds(1);
        step(new Input.Tick()); // still down: undone again
        assertThat(commands).isEmpty();
        placementsDown = false;
        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("east", 2, now, 0)), new Input.Tick()); // back: handled again at the tick
        assertThat(commands).containsExactly("apply uid-j@east#1");
        assertThat(records).extracting(PlacementRecord::state).containsExactly(State.PLACED);
        assertThat(hubWrites).contains("event j Placed: placed on east (epoch 1): fits: 1 pods on 1 nodes");
        now = now.plusSeconds(1);
        step(new Input.Tick());
        assertThat(commands).containsExactly("apply uid-j@east#1"); // once
    }

    @Test
    void aDeleteWhoseAnswerWasMissedIsSentAgainUntilTheAgentAnswers() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        var deleting = (com.fasterxml.jackson.databind.node.ObjectNode) job("j", "uid-j", T0, 8, "", "");
        deleting.with("metadata").put("deletionTimestamp", now.toString());
        step(new Input.HubChanged(deleting));
        assertThat(commands).containsExactly("apply uid-j@east#1", "delete uid-j@east#1");
        // the agent's DELETED answer is lost (read while another instance led, say): the delete must not hang
        for (int i = 2; i < 6; i++) {
            now = now.plusSeconds(10);
            step(new Input.Cluster(cluster("east", i, now, 0)), new Input.Tick());
        }
        assertThat(commands).containsExactly("apply uid-j@east#1", "delete uid-j@east#1", "delete uid-j@east#1");
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "delete", CommandResult.Outcome.DELETED, "", now)));
        assertThat(commands).endsWith("forget uid-j");
        assertThat(hubWrites).contains("unfinalize j");
    }

    @Test
    void anApplyIsNotSentAgainWhileItsAgentWorksThroughTheCommandsBeforeItButOnceItHasPassedIt() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0, 0, 0)),
                new Input.HubChanged(job("a", "uid-a", T0, 8, "", "")));
        now = now.plusSeconds(1);
        step(new Input.HubChanged(job("b", "uid-b", T0, 8, "", "")));
        now = now.plusSeconds(1);
        step(new Input.HubChanged(job("c", "uid-c", T0, 8, "", "")));
        List<String> applies = List.of("apply uid-a@east#1", "apply uid-b@east#1", "apply uid-c@east#1");
        assertThat(commands).isEqualTo(applies);
        // a slow agent works through a backlog: it answers a 32 s after it was sent, b and c still wait behind it
        for (int i = 2; i < 6; i++) {
            now = now.plusSeconds(10);
            Input answer = i == 4
                    ? new Input.Result(
                            new CommandResult("east", "uid-a", 1, "apply", CommandResult.Outcome.APPLIED, "", now))
                    : new Input.Tick();
            step(new Input.Cluster(cluster("east", i, now, 8, 0, 0)), answer, new Input.Tick());
        }
        assertThat(commands)
                .as("b unanswered for 41 s, its agent busy with what came before it")
                .isEqualTo(applies);
        // it answers c, sent after b: it has passed b, whose answer was lost; b is sent again, c is not
        now = now.plusSeconds(1);
        step(
                new Input.Result(
                        new CommandResult("east", "uid-c", 1, "apply", CommandResult.Outcome.APPLIED, "", now)),
                new Input.Tick());
        assertThat(commands)
                .containsExactly(
                        "apply uid-a@east#1", "apply uid-b@east#1", "apply uid-c@east#1", "apply uid-b@east#1");
    }

    @Test
    void anAgentThatHasAnsweredNothingYetGetsAFailoverTimeoutBeforeItsCommandIsSentAgain() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-j@east#1");
        for (int i = 2; i <= 7; i++) { // its agent reports every 10 s but answers nothing (busy with its first apply)
            now = now.plusSeconds(10);
            step(new Input.Cluster(cluster("east", i, now, 8)), new Input.Tick());
        }
        assertThat(commands).as("60 s unanswered: not sent again yet").containsExactly("apply uid-j@east#1");
        now = now.plusSeconds(10);
        step(new Input.Cluster(cluster("east", 8, now, 8)), new Input.Tick()); // 70 s: sent again
        assertThat(commands).containsExactly("apply uid-j@east#1", "apply uid-j@east#1");
    }

    @Test
    void aDeposedLeaderWritesNothingMoreEvenWhileItsInboxStillHoldsWork() {
        CoordinatorHarness electing = new CoordinatorHarness(settings("leases"));
        electing.coordinator.leading(true);
        electing.step(new Input.Leading(true), new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        electing.step(new Input.HubChanged(job("a", "uid-a", T0, 8, "", "")));
        assertThat(electing.commands).containsExactly("apply uid-a@east#1");
        electing.coordinator.leading(false); // the lease is lost; its input waits behind work already queued
        electing.step(
                new Input.HubChanged(job("b", "uid-b", T0, 8, "", "")),
                new Input.Result(
                        new CommandResult("east", "uid-a", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        assertThat(electing.commands).containsExactly("apply uid-a@east#1");
        assertThat(electing.records).extracting(PlacementRecord::uid).containsExactly("uid-a");
        assertThat(electing.hubWrites).noneMatch(w -> w.contains(" b "));
    }

    @Test
    void aLeaderWhoseWritesAreFencedGivesUpItsLeaseAndActsAgainInTheNextTermItIsGiven() {
        // issue 34: Kafka aborts a transaction that outlived its timeout (two of three nodes stalled) and bumps the
        // producer's epoch; the outbox cannot tell that from a newer leader. It used to stop acting for good while its
        // elector went on renewing the Lease, so no standby could take over.
        CoordinatorHarness electing = new CoordinatorHarness(settings("leases"));
        java.util.concurrent.atomic.AtomicInteger resigned = new java.util.concurrent.atomic.AtomicInteger();
        electing.coordinator.resignWith(resigned::incrementAndGet);
        electing.coordinator.leading(true, 4);
        electing.step(
                new Input.Leading(true, 4), new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        assertThat(electing.coordinator.actingTerm()).isEqualTo(4);
        electing.fenced = true;
        electing.step(new Input.HubChanged(job("a", "uid-a", T0, 8, "", "")));
        assertThat(resigned).hasValue(1);
        assertThat(electing.coordinator.view().active()).isFalse();
        assertThat(electing.coordinator.actingTerm())
                .as("its queued hub writes are dropped")
                .isEqualTo(-1);
        electing.step(new Input.HubChanged(job("b", "uid-b", T0, 8, "", "")), new Input.Tick());
        assertThat(resigned)
                .as("once: it does not try again while it does not lead")
                .hasValue(1);
        assertThat(electing.commands).isEmpty();

        electing.fenced = false; // the Lease is this instance's again, in a newer term (or another's: it stays idle)
        electing.coordinator.leading(true, 5);
        electing.step(new Input.Leading(true, 5), new Input.Tick());
        assertThat(electing.coordinator.view().active()).isTrue();
        assertThat(electing.coordinator.actingTerm()).isEqualTo(5);
        assertThat(electing.commands).containsExactlyInAnyOrder("apply uid-a@east#1", "apply uid-b@east#1");
    }

    @Test
    void leadingAloneAFencedWriteIsRetriedAfterTheProducerIsMadeAgain() {
        fenced = true;
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        step(new Input.HubChanged(job("a", "uid-a", T0, 8, "", "")));
        assertThat(commands).isEmpty();
        fenced = false;
        step(new Input.Tick(), new Input.Tick());
        assertThat(coordinator.view().active()).isTrue();
        assertThat(commands).containsExactly("apply uid-a@east#1");
    }

    @Test
    void aWaitingGangIsWrittenAndAnnouncedOnceNotOnEveryCapacityChange() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 8, 8)),
                new Input.HubChanged(job("w", "uid-w", T0, 8, "", "")));
        for (int i = 2; i < 22; i++) { // 20 capacity changes, each changing the numbers in the reason
            now = now.plusSeconds(1);
            step(new Input.Cluster(cluster("east", i, now, 8, 8 - i % 3)));
        }
        assertThat(records).filteredOn(r -> r.uid().equals("uid-w")).hasSize(1);
        assertThat(hubWrites)
                .filteredOn(w -> w.startsWith("event w Unschedulable"))
                .hasSize(1);
        assertThat(hubWrites).filteredOn(w -> w.startsWith("mark w")).hasSizeLessThanOrEqualTo(3); // at most every 10 s
        assertThat(coordinator.view().placements().get("uid-w").reason()).contains("largest free block");
    }

    @Test
    void marksAHubWriteLostAreWrittenAgainWhenTheObjectComesBackWithoutThem() {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        assertThat(hubWrites)
                .filteredOn(w -> w.startsWith("mark j {cartograph.dev/cluster=east"))
                .hasSize(1);
        var running = new dev.cartograph.protocol.WorkloadSummary(
                new dev.cartograph.protocol.WorkloadKey("east", "ml", "batch", "Job", "j"),
                "batch/v1",
                "inc",
                1,
                now,
                Optional.of("uid-j"),
                "Running",
                List.of("Running"),
                1,
                res("nvidia.com/gpu", "8"),
                0,
                List.of(),
                null);
        step(new Input.Workload(running.key(), Optional.of(running)));
        assertThat(hubWrites)
                .filteredOn(w -> w.equals("mark j {cartograph.dev/phase=Running}"))
                .hasSize(1);
        // every one of those writes was lost (the hub was away past the retries); the hub watch resyncs the object as
        // it is
        now = now.plusSeconds(300);
        step(
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")),
                new Input.Workload(running.key(), Optional.of(running)));
        assertThat(hubWrites)
                .filteredOn(w -> w.startsWith("mark j {cartograph.dev/cluster=east"))
                .hasSize(2);
        assertThat(hubWrites)
                .filteredOn(w -> w.equals("mark j {cartograph.dev/phase=Running}"))
                .hasSize(2);
    }

    @Test
    void aCopyReportedWhileItsDeletionWasUnderwayIsFencedOnceTheDeletionIsFinished() {
        step(
                new Input.CaughtUp(),
                // every Job on the hub is known: a copy without a placement or a hub object is a stray (HubInventory)
                new Input.HubListed(java.util.Set.of("batch/Job")),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        var deleting = (com.fasterxml.jackson.databind.node.ObjectNode) job("j", "uid-j", T0, 8, "", "");
        deleting.with("metadata").put("deletionTimestamp", now.toString());
        step(new Input.HubChanged(deleting));
        // the agent reports its copy (its cache saw it late) while the delete is under way, then answers the delete
        // DELETED without having found it: the copy stays on east
        var key = new dev.cartograph.protocol.WorkloadKey("east", "ml", "batch", "Job", "j");
        var copy = new dev.cartograph.protocol.WorkloadSummary(
                key,
                "batch/v1",
                "inc",
                1,
                now,
                Optional.of("uid-j"),
                "Running",
                List.of(),
                1,
                dev.cartograph.interpreter.resources.ResourceList.EMPTY,
                0,
                List.of(),
                null);
        step(new Input.Workload(key, Optional.of(copy)));
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "delete", CommandResult.Outcome.DELETED, "", now)));
        assertThat(commands).endsWith("forget uid-j");
        now = now.plusSeconds(1);
        step(new Input.Tick());
        assertThat(commands).last().isEqualTo("delete uid-j@east#" + Long.MAX_VALUE);
        step(new Input.Tick());
        assertThat(commands)
                .filteredOn(c -> c.startsWith("delete uid-j@east#" + Long.MAX_VALUE))
                .hasSize(1); // once
        step(new Input.Workload(key, Optional.empty())); // gone at last: nothing of it remembered,
        step(
                new Input.Workload(key, Optional.of(copy)),
                new Input.Tick()); // so should it come back, it is fenced again
        assertThat(commands)
                .filteredOn(c -> c.startsWith("delete uid-j@east#" + Long.MAX_VALUE))
                .hasSize(2);
    }
}
