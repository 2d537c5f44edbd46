package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A placed gang changed on the hub: forwarded only if what it adds fits where it runs (issue 11, item 11). */
@Timeout(60)
class UpdatesTest extends CoordinatorHarness {

    static JsonNode job(int pods, int gpus) {
        return yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: grow, namespace: ml, uid: uid-grow, creationTimestamp: "2026-12-02T11:00:00Z"}
                spec:
                  parallelism: %d
                  template:
                    spec:
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d"}}}]
                """.formatted(pods, gpus));
    }

    void placeOnePod() {
        // east: two nodes of 8 GPUs, both free; the gang takes one of them
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)), new Input.HubChanged(job(1, 8)));
        step(new Input.Result(
                new CommandResult("east", "uid-grow", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        // the agent accounts for it: one node full, its reservation released
        step(new Input.Cluster(cluster(
                "east",
                2,
                now,
                java.util.List.of(new dev.cartograph.protocol.PlacementReport(
                        "uid-grow", 1, 0, dev.cartograph.interpreter.resources.ResourceList.EMPTY)),
                8,
                0)));
        assertThat(coordinator.view().fleet().reservations()).isEmpty();
        assertThat(commands).containsExactly("apply uid-grow@east#1");
    }

    @Test
    void aScaleUpThatFitsWhereTheGangRunsIsForwardedAtTheNextEpochWithItsAddedPodsReserved() {
        placeOnePod();
        step(new Input.HubChanged(job(2, 8)));
        assertThat(commands).containsExactly("apply uid-grow@east#1", "apply uid-grow@east#2");
        assertThat(coordinator.view().placements().get("uid-grow").state()).isEqualTo(State.PLACED);
        // by hand: the added pod takes the other node's 8 GPUs until the agent reports it bound at epoch 2
        assertThat(coordinator
                        .view()
                        .fleet()
                        .reservations()
                        .get("uid-grow")
                        .perNode()
                        .values())
                .extracting(r -> r.gpus())
                .containsExactly(8L);
        assertThat(coordinator.view().fleet().reservations().get("uid-grow").epoch())
                .isEqualTo(2);
    }

    @Test
    void aScaleUpThatDoesNotFitIsNotForwardedAndTheObjectSaysWhyOnce() {
        placeOnePod();
        step(new Input.HubChanged(job(3, 8)));
        step(new Input.HubChanged(job(3, 8))); // the same spec again (a resync)
        assertThat(commands).containsExactly("apply uid-grow@east#1");
        assertThat(hubWrites)
                .filteredOn(w ->
                        w.startsWith("event grow NotForwarded: the change needs 2 more pods that do not fit on east"))
                .hasSize(1);
        assertThat(coordinator.view().placements().get("uid-grow").epoch()).isEqualTo(1);
        assertThat(coordinator.view().fleet().reservations()).isEmpty();
    }

    @Test
    void aScaleDownIsAlwaysForwarded() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)), new Input.HubChanged(job(2, 8)));
        step(new Input.Cluster(cluster("east", 2, now, 8, 8))); // and the cluster fills up
        step(new Input.HubChanged(job(1, 8)));
        assertThat(commands).containsExactly("apply uid-grow@east#1", "apply uid-grow@east#2");
    }

    @Test
    void theRecordOfAForwardedScaleUpHoldsItsAddedPodsSoARestartedBrokerReservesThemToo() {
        placeOnePod();
        step(new Input.HubChanged(job(2, 8)));
        assertThat(records.get(0).reserved()).containsOnlyKeys("east-n0"); // the first pod's node, full since
        var written = records.get(records.size() - 1);
        assertThat(written.epoch()).isEqualTo(2);
        assertThat(written.reserved()).containsOnlyKeys("east-n1"); // by hand: the added pod's 8 GPUs on the other node
        assertThat(written.reserved().values()).extracting(r -> r.gpus()).containsExactly(8L);
        CoordinatorHarness restarted = new CoordinatorHarness();
        restarted.step(
                new Input.Placement(written.uid(), java.util.Optional.of(written)),
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 3, now, 8, 0)));
        assertThat(restarted
                        .coordinator
                        .view()
                        .fleet()
                        .reservations()
                        .get("uid-grow")
                        .perNode())
                .containsOnlyKeys("east-n1");
    }

    @Test
    void aScaleUpWhoseRecordCannotBeWrittenIsNotForwardedAndReservesNothing() {
        placeOnePod();
        placementsDown = true;
        step(new Input.HubChanged(job(2, 8)));
        assertThat(commands).containsExactly("apply uid-grow@east#1");
        assertThat(coordinator.view().fleet().reservations()).isEmpty();
    }

    @Test
    void aScaleUpIsPlannedBeforeTheGangsQueuedInTheSameBatch() {
        placeOnePod();
        // the scale-up and a new gang of the same size arrive together: east's last free node goes to the running
        // gang (the scheduling cycle plans the changes of placed gangs before the queue), and the new one waits
        step(
                new Input.HubChanged(CoordinatorHarness.job("other", "uid-o", T0.minusSeconds(3600), 8, "", "")),
                new Input.HubChanged(job(2, 8)));
        assertThat(commands).containsExactly("apply uid-grow@east#1", "apply uid-grow@east#2");
        assertThat(coordinator.view().queue()).containsExactly("uid-o");
    }
}
