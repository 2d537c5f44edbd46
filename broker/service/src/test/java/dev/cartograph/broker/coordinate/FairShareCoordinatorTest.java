package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.fairshare.QueueReport;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The coordinator with Queues on the hub (ADR 0006): fair order across queues, budgets, quota waits. */
@Timeout(60)
class FairShareCoordinatorTest extends CoordinatorHarness {
    static final String H100 = "NVIDIA-H100-80GB-HBM3";

    @Test
    void twoTeamsSubmittingAtOnceGetTheFleetInProportionToTheirWeights() {
        // one cluster of 6 nodes × 8 free H100 GPUs = 48; team-a weight 2, team-b weight 1, no quotas: both borrow
        // everything from the fleet. Each team submits 6 one-node gangs (8 GPUs) in the same batch, team-a's first.
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0, 0, 0, 0, 0)));
        step(queues(queue("team-a", "team-a", 2, ""), queue("team-b", "team-b", 1, "")));
        List<Input> batch = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            batch.add(new Input.HubChanged(gang("team-a", "a" + i, T0.plusSeconds(i), 8)));
        }
        for (int i = 1; i <= 6; i++) {
            batch.add(new Input.HubChanged(gang("team-b", "b" + i, T0.plusSeconds(i), 8)));
        }
        coordinator.step(batch);
        // by hand, share = GPUs held / 48 / weight, lowest first; ties to the earlier head, then the queue's name:
        //   1. a 0, b 0, heads a1 and b1 both at +1 s: team-a (name) → a1; a = 8/48/2 = 1/12
        //   2. b 0 < 1/12 → b1; b = 8/48 = 1/6
        //   3. a 1/12 < 1/6 → a2; a = 1/6
        //   4. tie 1/6; heads a3 (+3 s) and b2 (+2 s) → b2; b = 1/3
        //   5. a 1/6 < 1/3 → a3; a = 1/4
        //   6. a 1/4 < 1/3 → a4; a = 1/3; the six nodes are taken: a 32 GPUs, b 16 (2:1)
        assertThat(gpusByNamespace()).isEqualTo(Map.of("team-a", 32L, "team-b", 16L));
        assertThat(coordinator.view().queue()).hasSize(6);

        now = now.plusSeconds(1); // the queues' report is made again at most once a second
        step(new Input.Tick());
        // by hand: a holds 32, all borrowed (nominal 0), 2 of its 6 wait, share 32/48/2 = 0.333; b 16, 4 wait, 16/48
        QueueReport.Row a = coordinator.view().queues().queue("team-a").orElseThrow();
        QueueReport.Row b = coordinator.view().queues().queue("team-b").orElseThrow();
        assertThat(List.of(a.nominalGpus(), a.inUseGpus(), a.borrowedGpus(), (long) a.waiting()))
                .containsExactly(0L, 32L, 32L, 2L);
        assertThat(List.of(b.nominalGpus(), b.inUseGpus(), b.borrowedGpus(), (long) b.waiting()))
                .containsExactly(0L, 16L, 16L, 4L);
        assertThat(a.status()).containsEntry("share", 0.333);
        assertThat(b.status()).containsEntry("share", 0.333);
        assertThat(a.models()).containsExactly(new QueueReport.Model(H100, 0, 32, 32));
    }

    @Test
    void withoutQueuesABatchIsServedFirstComeFirstServedByCreationTime() {
        // the control: same fleet, no Queue objects: team-a's six gangs were created first and take every node (the
        // queue's order: priority, then creation time, then uid; the order they reach the broker in does not count)
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0, 0, 0, 0, 0)));
        List<Input> batch = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            batch.add(new Input.HubChanged(gang("team-b", "b" + i, T0.plusSeconds(6 + i), 8)));
        }
        for (int i = 1; i <= 6; i++) {
            batch.add(new Input.HubChanged(gang("team-a", "a" + i, T0.plusSeconds(i), 8)));
        }
        coordinator.step(batch);
        assertThat(gpusByNamespace()).isEqualTo(Map.of("team-a", 48L));
    }

    @Test
    void aGangOverItsQueuesQuotaWaitsForQuotaWithTheNumbersAndIsPlacedWhenQuotaIsGivenBack() {
        // team-a: nominal 8 H100, borrowing limit 0 → at most 8. The cluster has 48 free: capacity is no limit.
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0, 0, 0, 0, 0)));
        step(queues(queue(
                "team-a", "team-a", 1, "quota: {gpus: {" + H100 + ": 8}}, borrowingLimit: {gpus: {" + H100 + ": 0}}")));
        step(new Input.HubChanged(gang("team-a", "a1", T0, 8)), new Input.HubChanged(gang("team-a", "a2", T0, 8)));
        assertThat(state("a1")).isEqualTo(State.PLACED);
        assertThat(state("a2")).isEqualTo(State.QUEUED);
        assertThat(coordinator.view().placements().get("uid-a2").reason())
                .isEqualTo("waits for quota: east: over quota: would take 8 " + H100 + " GPUs here, 0 allowed (queue"
                        + " team-a: nominal 8 + borrowing limit 0 − 8 in use)");
        // a namespace of no queue goes to default, which has no limit: it is placed
        step(new Input.HubChanged(gang("ml", "m1", T0, 8)));
        assertThat(state("m1")).isEqualTo(State.PLACED);

        now = now.plusSeconds(1);
        step(new Input.HubDeleted(gang("team-a", "a1", T0, 8))); // a1 gives its 8 back
        assertThat(state("a2")).isEqualTo(State.PLACED);
    }

    @Test
    void aScaleUpOfAPlacedGangIsHeldToItsQueuesQuota() {
        // team-a: at most 8 H100 (nominal 8, borrowing limit 0); east has 48 free, so only the quota can say no
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0, 0, 0, 0, 0)));
        step(queues(queue(
                "team-a", "team-a", 1, "quota: {gpus: {" + H100 + ": 8}}, borrowingLimit: {gpus: {" + H100 + ": 0}}")));
        step(new Input.HubChanged(parallel("a1", 1, 4)));
        assertThat(state("a1")).isEqualTo(State.PLACED);
        int applies = (int)
                commands.stream().filter(c -> c.startsWith("apply uid-a1")).count();

        step(new Input.HubChanged(parallel("a1", 2, 4))); // 2 × 4 = 8: within the quota, sent
        assertThat(commands.stream().filter(c -> c.startsWith("apply uid-a1"))).hasSize(applies + 1);

        step(new Input.HubChanged(parallel("a1", 3, 4))); // 12 > 8: not sent, and it says why
        assertThat(commands.stream().filter(c -> c.startsWith("apply uid-a1"))).hasSize(applies + 1);
        assertThat(hubWrites)
                .anyMatch(w -> w.startsWith("event a1 NotForwarded:")
                        && w.contains("over quota: would take 4 " + H100
                                + " GPUs here, 0 allowed (queue team-a: nominal 8 + borrowing limit 0 − 8 in use)"));
    }

    /** A federated Job in team-a of {@code pods} pods (parallelism) of {@code gpus} GPUs each; uid {@code uid-NAME}. */
    static JsonNode parallel(String name, int pods, int gpus) {
        return yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s, namespace: team-a, uid: uid-%s, creationTimestamp: "%s", labels: {cartograph.dev/federate: "true"}}
                spec:
                  parallelism: %d
                  completions: %d
                  template:
                    spec:
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d"}}}]
                """.formatted(name, name, T0, pods, pods, gpus));
    }

    @Test
    void aQueueWhoseNamespacesChangeTakesItsGangsAlongAndABadQueueLeavesTheRestAlone() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        // capped: 8 GPUs at most for team-a; "broken" has a negative weight and is left out (its namespace → default)
        step(queues(
                queue(
                        "team-a",
                        "team-a",
                        1,
                        "quota: {gpus: {" + H100 + ": 8}}, borrowingLimit: {gpus: {" + H100 + ": 0}}"),
                queue("broken", "lab", -1, "")));
        step(
                new Input.HubChanged(gang("team-a", "a1", T0, 8)),
                new Input.HubChanged(gang("team-a", "a2", T0.plusSeconds(1), 8)),
                new Input.HubChanged(gang("lab", "l1", T0, 8)));
        assertThat(state("a1")).isEqualTo(State.PLACED);
        assertThat(state("a2")).isEqualTo(State.QUEUED);
        assertThat(state("l1")).isEqualTo(State.PLACED); // nothing left: the cluster's 16 are taken
        // the cap is lifted (the Queue no longer limits borrowing) and a node frees up: a2 goes
        step(queues(queue("team-a", "team-a", 1, "quota: {gpus: {" + H100 + ": 8}}")));
        now = now.plusSeconds(1);
        step(new Input.HubDeleted(gang("lab", "l1", T0, 8)));
        assertThat(state("a2")).isEqualTo(State.PLACED);
    }

    private State state(String name) {
        return coordinator.view().placements().get("uid-" + name).state();
    }

    /** GPUs reserved per hub namespace by placed gangs (hand-checkable from the records). */
    private Map<String, Long> gpusByNamespace() {
        Map<String, Long> out = new TreeMap<>();
        for (PlacementRecord p : coordinator.view().placements().values()) {
            if (p.state() == State.PLACED) {
                out.merge(
                        p.target().namespace(),
                        p.reserved().values().stream().mapToLong(r -> r.gpus()).sum(),
                        Long::sum);
            }
        }
        return out;
    }

    static Input.Queues queues(JsonNode... queues) {
        return new Input.Queues(List.of(queues), Map.of());
    }

    static JsonNode queue(String name, String namespace, double weight, String more) {
        return yaml("""
                apiVersion: cartograph.dev/v1alpha1
                kind: Queue
                metadata: {name: %s}
                spec: {namespaces: [%s], weight: %s%s}
                """.formatted(name, namespace, weight, more.isEmpty() ? "" : ", " + more));
    }

    /** A federated Job in {@code namespace} of one pod asking {@code gpus} GPUs; uid {@code uid-NAME}. */
    static JsonNode gang(String namespace, String name, Instant created, int gpus) {
        return yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s, namespace: %s, uid: uid-%s, creationTimestamp: "%s", labels: {cartograph.dev/federate: "true"}}
                spec:
                  template:
                    spec:
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d"}}}]
                """.formatted(name, namespace, name, created, gpus));
    }
}
