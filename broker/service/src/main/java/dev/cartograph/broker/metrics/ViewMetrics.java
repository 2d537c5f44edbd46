package dev.cartograph.broker.metrics;

import dev.cartograph.broker.api.BrokerState;
import dev.cartograph.broker.api.Views;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.fleet.DomainReport;
import dev.cartograph.fleet.FleetReport;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The broker's state as gauges, read from the view the coordinator last published: per cluster and GPU model the
 * rows {@code GET /api/v1/fleet} and {@code carto fleet} show (the same {@link Views#report}, not a second count),
 * total and free GPUs per topology domain as {@code GET /api/v1/fleet/domains} shows them, readiness, the queue, GPUs held per hub namespace, ingest lag, leadership. Rows follow clusters, models,
 * namespaces and topics as they come and go: {@link #refresh} replaces them all, and is run before every scrape
 * (the {@code config} package's {@code ScrapeRefresh}), so a scrape sees the view as it is then. Thread-safe (refreshes are serialised).
 */
public final class ViewMetrics {
    /** The queue label: the broker has one queue (ordered by priority, then submission time). */
    static final String QUEUE = "default";
    /** The {@code gpu_model} label of nodes without GPUs (their model is empty in the fleet JSON). */
    static final String NO_MODEL = "none";

    private final BrokerState state;
    private final Supplier<Map<String, Long>> ingestLag;
    private final MultiGauge gpus;
    private final MultiGauge largestFreeBlock;
    private final MultiGauge nodes;
    private final MultiGauge ready;
    private final MultiGauge queueGangs;
    private final MultiGauge oldestWait;
    private final MultiGauge namespaceGpus;
    private final MultiGauge lag;
    private final MultiGauge queueGpus;
    private final MultiGauge domainFree;
    private final MultiGauge domainTotal;

    /** @param ingestLag records behind the log end per topic (the ingest's own consumer metrics) */
    public ViewMetrics(MeterRegistry registry, BrokerState state, Supplier<Map<String, Long>> ingestLag) {
        this.state = state;
        this.ingestLag = ingestLag;
        gpus = MultiGauge.builder("cartograph.cluster.gpus")
                .description("GPUs per cluster and model: total, allocated (bound pods), reserved (booked by the "
                        + "broker, not yet accounted by the agent), free (on ready, schedulable nodes)")
                .register(registry);
        largestFreeBlock = MultiGauge.builder("cartograph.cluster.largest.free.block")
                .description("Most free GPUs of one model on one node of a cluster")
                .register(registry);
        nodes = MultiGauge.builder("cartograph.cluster.nodes")
                .description("Nodes per cluster and GPU model")
                .register(registry);
        ready = MultiGauge.builder("cartograph.cluster.ready")
                .description("1 while the cluster's newest summary is within the heartbeat timeout, else 0")
                .register(registry);
        queueGangs = MultiGauge.builder("cartograph.queue.gangs")
                .description("Gangs waiting in the queue")
                .register(registry);
        oldestWait = MultiGauge.builder("cartograph.queue.oldest.wait")
                .baseUnit("seconds")
                .description("Age of the oldest gang waiting in the queue, since it was submitted; 0 when none waits")
                .register(registry);
        namespaceGpus = MultiGauge.builder("cartograph.namespace.gpus")
                .description("GPUs placed gangs of a hub namespace hold (placed or applied)")
                .register(registry);
        lag = MultiGauge.builder("cartograph.ingest.lag")
                .baseUnit("records")
                .description("Records the broker's ingest is behind the log end, per topic")
                .register(registry);
        queueGpus = MultiGauge.builder("cartograph.queue.gpus")
                .description("GPUs per queue and model: nominal (its quota, with its children's), in_use (held by its"
                        + " placed gangs), borrowed (in use above nominal); only with Queues on the hub")
                .register(registry);
        domainFree = MultiGauge.builder("cartograph.domain.free.gpus")
                .description("Free GPUs per cluster, topology level, domain (the level's node label value) and model")
                .register(registry);
        domainTotal = MultiGauge.builder("cartograph.domain.total.gpus")
                .description("GPUs per cluster, topology level, domain (the level's node label value) and model")
                .register(registry);
        Gauge.builder(
                        "cartograph.broker.recovered.placements",
                        state,
                        s -> s.view().recovered())
                .description("placements this broker found placed without a record and made again from their hub"
                        + " objects and copies: records were lost (a placements topic recreated, an unclean leader"
                        + " election, a standby that could not read them)")
                .strongReference(true)
                .register(registry);
        Gauge.builder(
                        "cartograph.broker.placements.topic.lost",
                        state,
                        s -> s.view().placementsLost())
                .description("times this broker found its placements topic deleted, or deleted and created again,"
                        + " while it ran; the leader wrote every placement record it held again")
                .strongReference(true)
                .register(registry);
        Gauge.builder("cartograph.broker.leader", state, s -> s.view().leading() ? 1 : 0)
                .description("1 while this broker holds the leader lease (or needs none), else 0")
                .strongReference(true)
                .register(registry);
    }

    /** Replaces every row with what the latest view says now. */
    public synchronized void refresh() {
        BrokerView view = state.view();
        Instant now = state.clock().instant();
        FleetReport report = Views.report(view, now, state.settings().heartbeatTimeout());
        List<MultiGauge.Row<?>> gpuRows = new ArrayList<>();
        List<MultiGauge.Row<?>> blockRows = new ArrayList<>();
        List<MultiGauge.Row<?>> nodeRows = new ArrayList<>();
        List<MultiGauge.Row<?>> readyRows = new ArrayList<>();
        for (FleetReport.ClusterReport c : report.clusters()) {
            readyRows.add(MultiGauge.Row.of(Tags.of("cluster", c.name()), c.ready() ? 1 : 0));
            for (FleetReport.ModelReport m : c.models()) {
                Tags t = Tags.of("cluster", c.name(), "gpu_model", m.model().isEmpty() ? NO_MODEL : m.model());
                gpuRows.add(MultiGauge.Row.of(t.and("state", "total"), m.total()));
                gpuRows.add(MultiGauge.Row.of(t.and("state", "allocated"), m.allocated()));
                gpuRows.add(MultiGauge.Row.of(t.and("state", "reserved"), m.reserved()));
                gpuRows.add(MultiGauge.Row.of(t.and("state", "free"), m.free()));
                blockRows.add(MultiGauge.Row.of(t, m.largestFreeBlock()));
                nodeRows.add(MultiGauge.Row.of(t, m.nodes()));
            }
        }
        gpus.register(gpuRows, true);
        largestFreeBlock.register(blockRows, true);
        nodes.register(nodeRows, true);
        ready.register(readyRows, true);
        registerDomains(view, now);
        Tags queue = Tags.of("queue", QUEUE);
        queueGangs.register(queueRows(view), true);
        queueGpus.register(queueGpuRows(view), true);
        oldestWait.register(List.of(MultiGauge.Row.of(queue, oldestWaitSeconds(view, now))), true);
        namespaceGpus.register(rows("namespace", gpusByNamespace(view)), true);
        lag.register(rows("topic", ingestLag.get()), true);
    }

    private void registerDomains(BrokerView view, Instant now) {
        DomainReport report = Views.domainReport(
                view, now, state.settings().heartbeatTimeout(), state.settings().topologyLevels());
        List<MultiGauge.Row<?>> free = new ArrayList<>();
        List<MultiGauge.Row<?>> total = new ArrayList<>();
        for (DomainReport.Domain d : report.domains()) {
            Tags t = Tags.of(
                    "cluster", d.cluster(),
                    "level", d.level(),
                    "domain", d.domain(),
                    "gpu_model", d.gpuModel().isEmpty() ? NO_MODEL : d.gpuModel());
            free.add(MultiGauge.Row.of(t, d.freeGpus()));
            total.add(MultiGauge.Row.of(t, d.totalGpus()));
        }
        domainFree.register(free, true);
        domainTotal.register(total, true);
    }

    /** Gangs waiting per queue: per Queue (leaves and parents) with Queues on the hub, else one row, {@code default}. */
    static List<MultiGauge.Row<?>> queueRows(BrokerView view) {
        if (view.queues().queues().isEmpty()) {
            return List.of(
                    MultiGauge.Row.of(Tags.of("queue", QUEUE), view.queue().size()));
        }
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        view.queues().queues().forEach(q -> rows.add(MultiGauge.Row.of(Tags.of("queue", q.name()), q.waiting())));
        return rows;
    }

    static List<MultiGauge.Row<?>> queueGpuRows(BrokerView view) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (dev.cartograph.fairshare.QueueReport.Row q : view.queues().queues()) {
            for (dev.cartograph.fairshare.QueueReport.Model m : q.models()) {
                Tags t = Tags.of("queue", q.name(), "gpu_model", m.model().isEmpty() ? NO_MODEL : m.model());
                rows.add(MultiGauge.Row.of(t.and("state", "nominal"), m.nominal()));
                rows.add(MultiGauge.Row.of(t.and("state", "in_use"), m.inUse()));
                rows.add(MultiGauge.Row.of(t.and("state", "borrowed"), m.borrowed()));
            }
        }
        return rows;
    }

    /** Seconds since the earliest submission among the queued gangs; 0 when the queue is empty. */
    static double oldestWaitSeconds(BrokerView view, Instant now) {
        Instant oldest = null;
        for (String uid : view.queue()) {
            PlacementRecord p = view.placements().get(uid);
            if (p != null && (oldest == null || p.submitted().isBefore(oldest))) {
                oldest = p.submitted();
            }
        }
        return oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toMillis() / 1000.0);
    }

    /** Per hub namespace, the GPUs its placed and applied gangs hold (what the broker reserved for them, per node). */
    static Map<String, Long> gpusByNamespace(BrokerView view) {
        Map<String, Long> out = new TreeMap<>();
        for (PlacementRecord p : view.placements().values()) {
            if (p.state() == State.PLACED || p.state() == State.APPLIED) {
                long held =
                        p.reserved().values().stream().mapToLong(r -> r.gpus()).sum();
                out.merge(p.target().namespace(), held, Long::sum);
            }
        }
        return out;
    }

    private static List<MultiGauge.Row<?>> rows(String label, Map<String, Long> values) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>(values.size());
        values.forEach((k, v) -> rows.add(MultiGauge.Row.of(Tags.of(label, k), v)));
        return rows;
    }
}
