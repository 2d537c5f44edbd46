package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.PlacementReport;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Drives the coordinator with randomized interleavings against a model of member clusters whose own
 * scheduler binds pods wherever they fit (not where the broker reserved), pod by pod, whose
 * controllers create pods late, whose agents report summaries that arrive late, and whose gangs finish
 * and are deleted. After every step: on no cluster do the GPUs of the gangs the broker has placed
 * there (and that have not finished) exceed the cluster's GPUs. Expected values are the model's
 * arithmetic, not the code under test.
 */
@Timeout(120)
class OverCommitStressTest {
    static final int CLUSTERS = 3;
    static final int NODES = 6;
    static final int GPUS = 8;

    /** One member copy: its gang's shape, its pods' nodes (-1 while unbound), whether it was created by its controller, finished. */
    static final class Copy {
        final String uid;
        final long epoch;
        final int gpusPerPod;
        final int[] node;
        boolean created;
        boolean finished;

        Copy(String uid, long epoch, int pods, int gpusPerPod) {
            this.uid = uid;
            this.epoch = epoch;
            this.gpusPerPod = gpusPerPod;
            this.node = new int[pods];
            java.util.Arrays.fill(node, -1);
        }

        int bound() {
            return (int) java.util.Arrays.stream(node).filter(n -> n >= 0).count();
        }
    }

    /** One member cluster: per-node GPUs in use (truth), its copies, commands not yet read, summaries not yet delivered. */
    static final class Member {
        final String name;
        final int[] used = new int[NODES];
        final Map<String, Copy> copies = new LinkedHashMap<>();
        final Deque<Command> commands = new ArrayDeque<>();
        final Deque<ClusterSummary> inFlight = new ArrayDeque<>();
        long sequence;

        Member(String name) {
            this.name = name;
        }
    }

    final Map<String, int[]> gangs = new HashMap<>(); // uid -> {pods, gpusPerPod}

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void theGpusOfPlacedGangsNeverExceedAClustersGpusWhateverTheInterleaving(long seed) {
        Random random = new Random(seed);
        CoordinatorHarness h = new CoordinatorHarness();
        Map<String, Member> members = new LinkedHashMap<>();
        for (int c = 0; c < CLUSTERS; c++) {
            members.put("c" + c, new Member("c" + c));
        }
        Deque<CommandResult> results = new ArrayDeque<>();
        int sentSeen = 0;
        h.step(new Input.CaughtUp());
        members.values().forEach(m -> h.step(new Input.Cluster(summary(m, h))));
        int submitted = 0;
        for (int step = 0; step < 3_000; step++) {
            Member m = new ArrayList<>(members.values()).get(random.nextInt(CLUSTERS));
            int action = random.nextInt(10);
            if (action == 0 && submitted < 120) {
                int pods = 1 + random.nextInt(3);
                int gpus = new int[] {1, 2, 4, 8}[random.nextInt(4)];
                String uid = "g" + submitted++;
                gangs.put(uid, new int[] {pods, gpus});
                h.step(new Input.HubChanged(job(uid, pods, gpus)));
            } else if (action == 1 && !m.commands.isEmpty()) {
                carryOut(m, m.commands.poll(), results, h);
            } else if (action == 2) {
                m.copies.values().stream().filter(c -> !c.created).findFirst().ifPresent(c -> c.created = true);
            } else if (action == 3) {
                schedule(m, random);
            } else if (action == 4 && random.nextInt(4) == 0) {
                finishOne(m, random);
            } else if (action == 5) {
                m.inFlight.add(summary(m, h));
            } else if (action == 6 && !m.inFlight.isEmpty()) {
                h.step(new Input.Cluster(m.inFlight.poll()));
            } else if (action == 7 && !results.isEmpty()) {
                h.step(new Input.Result(results.poll()));
            } else if (action == 8) {
                h.now = h.now.plusSeconds(1);
                h.step(new Input.Tick());
            } else if (action == 9 && random.nextInt(6) == 0) {
                deleteFinished(h, members, random);
            }
            sentSeen = route(h, members, sentSeen);
            assertNoOverCommit(h, members, seed, step);
        }
        assertThat(submitted).isGreaterThan(100);
        // then the members settle: every command read, every pod created and scheduled, every summary and answer
        // delivered, time moving past the start timeout: no gang is left placed where it cannot start
        for (int round = 0; round < 120; round++) {
            for (Member m : members.values()) {
                while (!m.commands.isEmpty()) {
                    carryOut(m, m.commands.poll(), results, h);
                }
                m.copies.values().forEach(c -> c.created = true);
                schedule(m, random);
                h.step(new Input.Cluster(summary(m, h)));
            }
            while (!results.isEmpty()) {
                h.step(new Input.Result(results.poll()));
            }
            h.now = h.now.plusSeconds(30);
            h.step(new Input.Tick());
            sentSeen = route(h, members, sentSeen);
            assertNoOverCommit(h, members, seed, -round);
        }
        for (PlacementRecord p : h.coordinator.view().placements().values()) {
            if (p.state() == State.PLACED || p.state() == State.APPLIED) {
                Copy copy = members.get(p.cluster().orElseThrow()).copies.get(p.uid());
                assertThat(copy)
                        .as("seed %d: %s has a copy where it is placed", seed, p.uid())
                        .isNotNull();
                assertThat(copy.finished || copy.bound() == copy.node.length)
                        .as(
                                "seed %d: %s started on %s",
                                seed, p.uid(), p.cluster().get())
                        .isTrue();
            } else {
                assertThat(p.state()).as("seed %d: %s", seed, p.uid()).isEqualTo(State.QUEUED);
                assertThat(p.reason()).isNotEmpty();
            }
        }
        for (String uid : gangs.keySet()) {
            long copies = members.values().stream()
                    .filter(m -> m.copies.containsKey(uid) && !m.copies.get(uid).finished)
                    .count();
            assertThat(copies).as("seed %d: live copies of %s", seed, uid).isLessThanOrEqualTo(1);
        }
    }

    /** Commands the coordinator sent since last time, into each member's topic. */
    private static int route(CoordinatorHarness h, Map<String, Member> members, int seen) {
        for (int i = seen; i < h.sent.size(); i++) {
            String line = h.commands.stream()
                    .filter(s -> !s.startsWith("forget"))
                    .skip(i)
                    .findFirst()
                    .orElseThrow();
            String cluster = line.substring(line.indexOf('@') + 1, line.indexOf('#'));
            members.get(cluster).commands.add(h.sent.get(i));
        }
        return h.sent.size();
    }

    private void carryOut(Member m, Command command, Deque<CommandResult> results, CoordinatorHarness h) {
        Copy existing = m.copies.get(command.placementId());
        if (existing != null && command.epoch() < existing.epoch) {
            results.add(result(m, command, CommandResult.Outcome.STALE, h));
            return;
        }
        if (command instanceof Command.Apply) {
            if (existing == null) {
                int[] shape = gangs.get(command.placementId());
                m.copies.put(
                        command.placementId(), new Copy(command.placementId(), command.epoch(), shape[0], shape[1]));
            }
            results.add(result(m, command, CommandResult.Outcome.APPLIED, h));
        } else {
            if (existing != null) {
                release(m, existing);
                m.copies.remove(command.placementId());
            }
            results.add(result(m, command, CommandResult.Outcome.DELETED, h));
        }
    }

    private static CommandResult result(Member m, Command c, CommandResult.Outcome outcome, CoordinatorHarness h) {
        return new CommandResult(
                m.name,
                c.placementId(),
                c.epoch(),
                c instanceof Command.Apply ? "apply" : "delete",
                outcome,
                "",
                h.now);
    }

    /** The member's scheduler: each created, unbound pod to a random node where it fits now (pod by pod, no gang). */
    private static void schedule(Member m, Random random) {
        for (Copy c : m.copies.values()) {
            if (!c.created || c.finished) {
                continue;
            }
            for (int p = 0; p < c.node.length; p++) {
                if (c.node[p] >= 0) {
                    continue;
                }
                List<Integer> fits = new ArrayList<>();
                for (int n = 0; n < NODES; n++) {
                    if (GPUS - m.used[n] >= c.gpusPerPod) {
                        fits.add(n);
                    }
                }
                if (!fits.isEmpty()) {
                    int n = fits.get(random.nextInt(fits.size()));
                    c.node[p] = n;
                    m.used[n] += c.gpusPerPod;
                }
            }
        }
    }

    private static void finishOne(Member m, Random random) {
        List<Copy> running = m.copies.values().stream()
                .filter(c -> !c.finished && c.bound() == c.node.length)
                .toList();
        if (!running.isEmpty()) {
            Copy c = running.get(random.nextInt(running.size()));
            release(m, c);
            c.finished = true;
        }
    }

    private static void release(Member m, Copy c) {
        for (int p = 0; p < c.node.length; p++) {
            if (c.node[p] >= 0) {
                m.used[c.node[p]] -= c.gpusPerPod;
                c.node[p] = -1;
            }
        }
    }

    /** The hub object of a finished gang is deleted (its finalizer is released once its copy is gone). */
    private static void deleteFinished(CoordinatorHarness h, Map<String, Member> members, Random random) {
        List<String> done = members.values().stream()
                .flatMap(m -> m.copies.values().stream())
                .filter(c -> c.finished)
                .map(c -> c.uid)
                .toList();
        if (!done.isEmpty()) {
            String uid = done.get(random.nextInt(done.size()));
            ObjectNode o = (ObjectNode) job(uid, 1, 1);
            o.with("metadata").put("deletionTimestamp", h.now.toString());
            h.step(new Input.HubChanged(o));
        }
    }

    /** What the member's agent reports, by the protocol's contract: allocation of bound pods; per copy, pods not yet bound. */
    private static ClusterSummary summary(Member m, CoordinatorHarness h) {
        List<NodeState> nodes = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            nodes.add(new NodeState(
                    m.name + "-n" + n,
                    Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"),
                    List.of(),
                    true,
                    true,
                    CoordinatorHarness.res("nvidia.com/gpu", "" + GPUS, "cpu", "64", "memory", "512Gi", "pods", "110"),
                    m.used[n] == 0 ? ResourceList.EMPTY : CoordinatorHarness.res("nvidia.com/gpu", "" + m.used[n])));
        }
        List<PlacementReport> placed = new ArrayList<>();
        for (Copy c : m.copies.values()) {
            int pending = c.finished ? 0 : c.node.length - c.bound();
            placed.add(new PlacementReport(
                    c.uid,
                    c.epoch,
                    pending,
                    pending == 0
                            ? ResourceList.EMPTY
                            : CoordinatorHarness.res("nvidia.com/gpu", "" + pending * c.gpusPerPod)));
        }
        return new ClusterSummary(m.name, Map.of(), "v", "inc", ++m.sequence, h.now, nodes, placed);
    }

    private void assertNoOverCommit(CoordinatorHarness h, Map<String, Member> members, long seed, int step) {
        Map<String, Integer> booked = new HashMap<>();
        for (PlacementRecord p : h.coordinator.view().placements().values()) {
            if ((p.state() == State.PLACED || p.state() == State.APPLIED)
                    && p.cluster().isPresent()) {
                Copy copy = members.get(p.cluster().get()).copies.get(p.uid());
                if (copy == null || !copy.finished) {
                    int[] shape = gangs.get(p.uid());
                    booked.merge(p.cluster().get(), shape[0] * shape[1], Integer::sum);
                }
            }
        }
        booked.forEach((cluster, gpus) -> assertThat(gpus)
                .as("seed %d step %d: GPUs of gangs placed on %s (of %d)", seed, step, cluster, NODES * GPUS)
                .isLessThanOrEqualTo(NODES * GPUS));
    }

    private static com.fasterxml.jackson.databind.JsonNode job(String uid, int pods, int gpus) {
        return CoordinatorHarness.yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s, namespace: ml, uid: %s, creationTimestamp: "2026-12-02T11:00:00Z"}
                spec:
                  parallelism: %d
                  template:
                    spec:
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d"}}}]
                """.formatted(uid, uid, pods, gpus));
    }
}
