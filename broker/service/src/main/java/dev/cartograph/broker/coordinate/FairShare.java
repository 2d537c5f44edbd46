package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.fairshare.QueueReport;
import dev.cartograph.fairshare.QueueSpec;
import dev.cartograph.fairshare.QueueSpecs;
import dev.cartograph.fairshare.QueueTree;
import dev.cartograph.fairshare.Quotas;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.GpuBudget;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.preemption.Preemption;
import dev.cartograph.preemption.Preemptor;
import dev.cartograph.preemption.Victim;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadSummary;
import dev.cartograph.usage.UsageKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queues on the coordinator's thread (ADR 0006): the hub's Queues made into a {@link QueueTree}, the queue of each
 * placement (by its hub namespace), the GPUs per model each queue's gangs hold — kept as the {@link PlacementStore}'s records and
 * member copies change, not counted per decision — and from those the {@link Quotas}: a gang's GPU budget and the
 * queues' shares. A gang holds GPUs while it is placed or applied and its copy has not finished; the model of each
 * GPU is its node's {@code nvidia.com/gpu.product} as the fleet has it. Without any Queue on the hub it is off:
 * every budget is unlimited and there is one queue, so placement is as without queues. Coordinator thread only.
 */
final class FairShare implements PlacementStore.Holdings {
    private static final Logger LOG = LoggerFactory.getLogger(FairShare.class);
    private static final Set<String> FINISHED = Set.of("Completed", "Failed");

    /** What one placement holds, counted in the queue it belonged to when counted. */
    private record Held(String queue, Map<String, Long> gpus) {}

    private final Fleet fleet;
    private final Clock clock;
    private final Duration heartbeatTimeout;
    private QueueTree tree = QueueTree.of(List.of());
    private Map<String, Map<String, String>> namespaceLabels = Map.of();
    private boolean on;
    private final Map<String, Held> held = new HashMap<>();
    private final Map<String, Map<String, Long>> usage = new HashMap<>();
    /** Made again when asked for after a change. */
    private Quotas quotas;
    /** Some placement holds less than it did since {@link #released} was last asked. */
    private boolean released;

    FairShare(Fleet fleet, Clock clock, Duration heartbeatTimeout) {
        this.fleet = fleet;
        this.clock = clock;
        this.heartbeatTimeout = heartbeatTimeout;
    }

    /**
     * The hub's Queues changed: each is read on its own (a bad one is left out with its reason, its namespaces go to
     * {@code default}), the tree is made again and what every placement holds is counted in its queue now.
     */
    void queues(Input.Queues q, PlacementStore store) {
        List<QueueSpecs.Read> read = new ArrayList<>();
        for (JsonNode queue : q.queues()) {
            read.add(QueueSpecs.read(queue));
        }
        tree = QueueTree.of(read);
        namespaceLabels = q.namespaceLabels();
        on = !q.queues().isEmpty();
        tree.problems().forEach((name, why) -> LOG.warn("Queue {}: {}", name, String.join("; ", why)));
        recount(store);
    }

    /** Whether any Queue exists on the hub (else placement is first come, first served, as without queues). */
    boolean on() {
        return on;
    }

    QueueTree tree() {
        return tree;
    }

    /** The queue of a gang in this hub namespace. */
    String queueOf(String namespace) {
        return on ? tree.queueOf(namespace, namespaceLabels.getOrDefault(namespace, Map.of())) : QueueSpec.DEFAULT;
    }

    /** The most GPUs per model one more gang of the namespace's queue may take now. */
    GpuBudget budget(String namespace) {
        return on ? quotas().budget(queueOf(namespace)) : GpuBudget.NONE;
    }

    /** The queues' quotas and use now; the fleet lends what its ready clusters have. */
    Quotas quotas() {
        if (quotas == null) {
            quotas = new Quotas(tree, usage, fleet.gpusByModel(clock.instant(), heartbeatTimeout));
        }
        return quotas;
    }

    /** The queues' report, made again at most every {@link #REPORT_EVERY} (it counts the whole queue). */
    static final Duration REPORT_EVERY = Duration.ofSeconds(1);

    private QueueReport report = QueueReport.EMPTY;
    private java.time.Instant reportedAt = java.time.Instant.MIN;

    /** What each queue has, uses and has waiting; empty without Queues. */
    QueueReport report(PlacementStore store) {
        java.time.Instant now = clock.instant();
        if (!on) {
            report = QueueReport.EMPTY;
        } else if (report == QueueReport.EMPTY || !now.isBefore(reportedAt.plus(REPORT_EVERY))) {
            Map<String, Integer> waiting = new HashMap<>();
            for (String uid : store.queue().uids()) {
                store.placement(uid)
                        .ifPresent(p -> waiting.merge(queueOf(p.target().namespace()), 1, Integer::sum));
            }
            report = QueueReport.of(tree, quotas(), waiting);
            reportedAt = now;
        }
        return report;
    }

    /** Who would make room for the gang ({@link Preemption}), by what the queues hold now. */
    Optional<Preemption.Plan> preempt(
            Preemptor gang, Supplier<List<Victim>> placed, PlanningFleet scope, Planner.Policy policy) {
        if (!Preemption.mayPreempt(gang.queue(), tree, quotas())) {
            return Optional.empty(); // most waiting gangs: no victims gathered
        }
        Map<String, Long> fleetGpus = fleet.gpusByModel(clock.instant(), heartbeatTimeout);
        return Preemption.plan(gang, placed.get(), scope, tree, usage, fleetGpus, policy);
    }

    /** GPUs per model a placement holds now, by its queue; empty when it holds none. */
    Map<String, Long> held(String uid) {
        Held h = held.get(uid);
        return h == null ? Map.of() : h.gpus();
    }

    /**
     * The GPUs per (queue, hub namespace, model) every placement holds now, by the rule above (placed or applied, its
     * copy not finished), with or without Queues: what usage accounting integrates over time.
     */
    Map<UsageKey, Long> holdings(PlacementStore store) {
        Map<UsageKey, Long> out = new HashMap<>();
        Map<String, WorkloadSummary> members = store.membersView();
        for (PlacementRecord p : store.placements()) {
            Held h = on ? held.get(p.uid()) : holding(p, members.get(p.uid()));
            if (h != null) {
                String ns = p.target().namespace();
                h.gpus().forEach((model, n) -> out.merge(new UsageKey(h.queue(), ns, model), n, Long::sum));
            }
        }
        return out;
    }

    @Override
    public void changed(String uid, PlacementRecord record, WorkloadSummary member) {
        if (on) {
            count(uid, record, member);
        }
    }

    /**
     * Counts every placement of the store again: the queues changed, or the fleet now knows nodes it did not when they
     * were counted (a new leader, once caught up with every cluster topic).
     */
    void recount(PlacementStore store) {
        held.clear();
        usage.clear();
        quotas = null;
        if (on) {
            Map<String, WorkloadSummary> members = store.membersView();
            for (PlacementRecord p : store.placements()) {
                count(p.uid(), p, members.get(p.uid()));
            }
        }
    }

    /** The fleet's capacity changed: what the fleet can lend is counted again when next asked for. */
    void capacityChanged() {
        quotas = null;
    }

    private void count(String uid, PlacementRecord p, WorkloadSummary m) {
        Held before = held.remove(uid);
        if (before != null) {
            add(before, -1);
        }
        Held now = holding(p, m);
        if (now != null) {
            held.put(uid, now);
            add(now, 1);
        }
        if (before != null && (now == null || !now.queue().equals(before.queue()) || !covers(now, before))) {
            released = true;
        }
    }

    /** What the placement holds now, in its queue; null when nothing. */
    private Held holding(PlacementRecord p, WorkloadSummary m) {
        if (p == null
                || p.cluster().isEmpty()
                || p.state() != State.PLACED && p.state() != State.APPLIED
                || m != null && FINISHED.contains(m.phase())) {
            return null;
        }
        Map<String, Long> gpus = new TreeMap<>();
        for (Map.Entry<String, ResourceList> e : p.reserved().entrySet()) {
            long n = e.getValue().gpus();
            if (n > 0) {
                gpus.merge(fleet.gpuModel(p.cluster().get(), e.getKey()).orElse(""), n, Long::sum);
            }
        }
        return gpus.isEmpty() ? null : new Held(queueOf(p.target().namespace()), Map.copyOf(gpus));
    }

    private static boolean covers(Held now, Held before) {
        return before.gpus().entrySet().stream().allMatch(e -> now.gpus().getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /**
     * Whether some gang gave back quota since last asked (done, deleted, failed, moved, suspended): the gangs that
     * waited for quota may fit now on any cluster, not only where capacity changed.
     */
    boolean released() {
        boolean was = released;
        released = false;
        return was;
    }

    private void add(Held h, int sign) {
        Map<String, Long> q = usage.computeIfAbsent(h.queue(), k -> new TreeMap<>());
        h.gpus().forEach((model, n) -> {
            long left = q.getOrDefault(model, 0L) + sign * n;
            if (left == 0) {
                q.remove(model);
            } else {
                q.put(model, left);
            }
        });
        if (q.isEmpty()) {
            usage.remove(h.queue());
        }
        quotas = null;
    }
}
