package dev.cartograph.broker.coordinate;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Benchmark, not a test (its name keeps it out of the test runs): 10,000 gangs wait on a full fleet
 * (48 distinct asks: 1, 2 or 4 pods × 1, 2, 4 or 8 GPUs, on any GPU model or one of three). Then,
 * one cluster at a time, its agent reports that one node's pods finished (1 to 8 GPUs freed) and
 * that the gangs placed on it since its last summary run (their GPUs in use, their reservations
 * accounted for); the real coordinator handles each such summary (taken in, the gangs that could fit
 * that cluster retried, view published). Last, one whole-queue retry (the once-a-minute safety net).
 * Run: {@code mvn -B -ntp -o -q verify -pl broker/service -am -DskipITs -Dtest=QueueBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false -Dclusters=100 -Dnodes=1000}
 */
@Timeout(3600)
class QueueBenchmark extends CoordinatorHarness {
    static final int WAITING = Integer.getInteger("waiting", 10_000);
    static final int CHANGES = Integer.getInteger("changes", 300);
    static final int WARM_UP = 30;

    @Test
    void capacityChangesOnSingleClustersWithTenThousandGangsWaiting() {
        Random random = new Random(7);
        int clusters = SyntheticFleet.CLUSTERS;
        step(new Input.CaughtUp()); // active, no cluster yet: every gang waits at once
        List<Input> batch = new ArrayList<>();
        for (int i = 0; i < WAITING; i++) {
            int p = random.nextInt(SyntheticFleet.PRODUCTS.length + 1);
            batch.add(new Input.HubChanged(SyntheticFleet.job(
                    "g" + i,
                    "uid-" + i,
                    T0.plusMillis(i),
                    1 << random.nextInt(3),
                    1 << random.nextInt(4),
                    p == 0 ? "" : SyntheticFleet.PRODUCTS[p - 1])));
            if (batch.size() == 500) {
                coordinator.step(batch);
                batch.clear();
            }
        }
        coordinator.step(batch);
        int[][] used = new int[clusters][SyntheticFleet.NODES];
        List<List<NodeState>> nodes = new ArrayList<>();
        long[] sequence = new long[clusters];
        long setup = System.nanoTime();
        for (int c = 0; c < clusters; c++) { // every GPU in use
            Arrays.fill(used[c], 8);
            nodes.add(SyntheticFleet.nodes(c, 8));
            step(new Input.Cluster(SyntheticFleet.summary(c, ++sequence[c], now, nodes.get(c), List.of())));
        }
        System.out.printf(
                "%d clusters x %d nodes, %d gangs waiting (%d distinct asks); fleet reported in %.0f ms%n",
                clusters,
                SyntheticFleet.NODES,
                coordinator.view().queue().size(),
                coordinator.cycle().last().asks(),
                (System.nanoTime() - setup) / 1e6);

        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] nanos = new long[CHANGES];
        long[] cpu = new long[CHANGES];
        long[] testing = new long[CHANGES];
        int[] attempted = new int[CHANGES];
        int[] tested = new int[CHANGES];
        int placed = 0;
        int seen = records.size();
        List<List<PlacementReport>> accounted = new ArrayList<>();
        for (int c = 0; c < clusters; c++) {
            accounted.add(new ArrayList<>());
        }
        for (int i = 0; i < CHANGES; i++) {
            // the agent of one cluster reports: one node's pods finished (1 to 8 GPUs freed), and the gangs placed
            // there since its last summary are running (their GPUs in use, their reservations accounted for)
            int c = random.nextInt(clusters);
            int n = random.nextInt(SyntheticFleet.NODES);
            used[c][n] = random.nextInt(Math.max(1, used[c][n]));
            List<NodeState> changed = new ArrayList<>(nodes.get(c));
            for (int k = 0; k < SyntheticFleet.NODES; k++) {
                if (k == n || changed.get(k).allocated().gpus() != used[c][k]) {
                    changed.set(k, SyntheticFleet.node("c" + c + "-n" + k, SyntheticFleet.product(c), used[c][k]));
                }
            }
            nodes.set(c, changed);
            Input summary = new Input.Cluster(
                    SyntheticFleet.summary(c, ++sequence[c], now, changed, List.copyOf(accounted.get(c))));
            accounted.get(c).clear();
            long start = System.nanoTime();
            long startCpu = threads.getCurrentThreadCpuTime();
            step(summary);
            nanos[i] = System.nanoTime() - start;
            cpu[i] = threads.getCurrentThreadCpuTime() - startCpu;
            testing[i] = coordinator.cycle().lastTestingNanos();
            attempted[i] = coordinator.cycle().last().attempted();
            tested[i] = coordinator.cycle().last().asksTested();
            placed += coordinator.cycle().last().placed();
            for (; seen < records.size(); seen++) {
                PlacementRecord r = records.get(seen);
                if (r.state() == PlacementRecord.State.PLACED) {
                    int at = Integer.parseInt(r.cluster().orElseThrow().substring(1));
                    r.reserved()
                            .forEach((node, amount) ->
                                    used[at][Integer.parseInt(node.substring(node.lastIndexOf('n') + 1))] +=
                                            (int) amount.gpus());
                    accounted.get(at).add(new PlacementReport(r.uid(), r.epoch(), 0, ResourceList.EMPTY));
                }
            }
        }
        long[] warm = Arrays.copyOfRange(nanos, Math.min(WARM_UP, CHANGES - 1), CHANGES);
        Arrays.sort(warm);
        long[] warmCpu = Arrays.copyOfRange(cpu, Math.min(WARM_UP, CHANGES - 1), CHANGES);
        Arrays.sort(warmCpu);
        System.out.printf(
                "capacity change handled: p50 %.1f ms, p99 %.1f ms (n=%d), gangs re-tried per change: mean %.1f, max %d"
                        + " (of %d waiting); asks tested per change: mean %.1f; placed: %d in %d changes%n",
                warm[warm.length / 2] / 1e6,
                warm[(int) (warm.length * 0.99)] / 1e6,
                warm.length,
                Arrays.stream(attempted).average().orElse(0),
                Arrays.stream(attempted).max().orElse(0),
                WAITING,
                Arrays.stream(tested).average().orElse(0),
                placed,
                CHANGES);
        long[] warmTesting = Arrays.copyOfRange(testing, Math.min(WARM_UP, CHANGES - 1), CHANGES);
        Arrays.sort(warmTesting);
        System.out.printf(
                "of which testing the waiting asks on the changed cluster (the rest: taking the summary in, planning"
                        + " the gangs placed on the whole fleet, publishing): p50 %.1f ms, p99 %.1f ms%n",
                warmTesting[warmTesting.length / 2] / 1e6, warmTesting[(int) (warmTesting.length * 0.99)] / 1e6);
        System.out.printf(
                "the same on the coordinator thread's CPU clock (the machine is shared): p50 %.1f ms, p99 %.1f ms%n",
                warmCpu[warmCpu.length / 2] / 1e6, warmCpu[(int) (warmCpu.length * 0.99)] / 1e6);

        now = now.plusSeconds(SchedulingCycle.FULL_RETRY.toSeconds());
        for (int c = 0; c < clusters; c++) { // heard from again, unchanged, so none counts as lost
            step(new Input.Cluster(SyntheticFleet.summary(c, ++sequence[c], now, nodes.get(c), List.of())));
        }
        long start = System.nanoTime();
        long startCpu = threads.getCurrentThreadCpuTime();
        step(new Input.Tick());
        System.out.printf(
                "tick with the whole-queue retry (the once-a-minute safety net): %.0f ms (CPU %.0f ms), %s%n",
                (System.nanoTime() - start) / 1e6,
                (threads.getCurrentThreadCpuTime() - startCpu) / 1e6,
                coordinator.cycle().last());
    }
}
