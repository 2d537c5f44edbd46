package dev.cartograph.broker.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.fleet.DomainReport;
import dev.cartograph.fleet.FleetReport;
import dev.cartograph.fleet.TopologyLevels;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadSummary;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The JSON the REST API serves, built from one {@link BrokerView}. The fleet is the snapshot shape
 * of docs/protocol.md (so a saved {@code GET /api/v1/fleet} is a file {@code carto plan --fleet}
 * reads; reserved capacity counts as allocated there) with per-cluster GPU rows added. Pure.
 */
public final class Views {
    private Views() {}

    public static ObjectNode fleet(BrokerView view, Instant now, Duration heartbeatTimeout) {
        List<ClusterState> planning = view.fleet().forPlanning(now, heartbeatTimeout).stream()
                .sorted(Comparator.comparing(ClusterState::name))
                .toList();
        ObjectNode o = Wire.fleet(planning);
        FleetReport report = report(view, now, heartbeatTimeout);
        Map<String, FleetReport.ClusterReport> byName = new HashMap<>();
        report.clusters().forEach(c -> byName.put(c.name(), c));
        long[] totals = new long[5];
        for (JsonNode c : o.path("clusters")) {
            FleetReport.ClusterReport r = byName.get(c.path("name").asText());
            ObjectNode co = (ObjectNode) c;
            co.put("heartbeat", r.heartbeat().toString()).put("pending", r.pending());
            ArrayNode models = co.putArray("gpuModels");
            for (FleetReport.ModelReport m : r.models()) {
                model(models, m);
                totals[0] += m.total();
                totals[1] += m.allocated();
                totals[2] += m.reserved();
                totals[3] += m.free();
                totals[4] = Math.max(totals[4], m.largestFreeBlock());
            }
        }
        o.putObject("totals")
                .put("total", totals[0])
                .put("allocated", totals[1])
                .put("reserved", totals[2])
                .put("free", totals[3])
                .put("largestFreeBlock", totals[4]);
        o.put("queued", view.queue().size()).put("at", now.toString());
        return o;
    }

    /** One GPU model's row of a cluster, as {@code /api/v1/fleet} and {@code /api/v1/fleet/summary} write it. */
    static void model(ArrayNode into, FleetReport.ModelReport m) {
        into.addObject()
                .put("model", m.model())
                .put("nodes", m.nodes())
                .put("total", m.total())
                .put("allocated", m.allocated())
                .put("reserved", m.reserved())
                .put("free", m.free())
                .put("largestFreeBlock", m.largestFreeBlock());
    }

    /**
     * The per-cluster, per-GPU-model numbers of {@link #fleet} (and so of {@code carto fleet}); the broker's metrics
     * export these same rows.
     */
    public static FleetReport report(BrokerView view, Instant now, Duration heartbeatTimeout) {
        return FleetReport.of(view.fleet(), now, heartbeatTimeout, pendingByCluster(view));
    }

    /** Free GPUs per topology domain of the view's fleet, counted as {@link #report} counts them per cluster. */
    public static DomainReport domainReport(
            BrokerView view, Instant now, Duration heartbeatTimeout, TopologyLevels levels) {
        return DomainReport.of(view.fleet(), now, heartbeatTimeout, levels);
    }

    /** {@code GET /api/v1/fleet/domains}: the levels, widest first, and one object per {@link DomainReport.Domain}. */
    public static ObjectNode domains(DomainReport report) {
        ObjectNode o = Documents.json().createObjectNode();
        ArrayNode levels = o.putArray("levels");
        report.levels().keys().forEach(levels::add);
        ArrayNode rows = o.putArray("domains");
        for (DomainReport.Domain d : report.domains()) {
            rows.addObject()
                    .put("cluster", d.cluster())
                    .put("level", d.level())
                    .put("domain", d.domain())
                    .put("gpuModel", d.gpuModel())
                    .put("nodes", d.nodes())
                    .put("readyNodes", d.readyNodes())
                    .put("totalGpus", d.totalGpus())
                    .put("freeGpus", d.freeGpus())
                    .put("largestFreeBlock", d.largestFreeBlock())
                    .put("wholeFreeNodes", d.wholeFreeNodes());
        }
        return o;
    }

    /** Per cluster, gangs placed there whose member copy is not Running (or Completed) yet. */
    public static Map<String, Integer> pendingByCluster(BrokerView view) {
        Map<String, Integer> pending = new HashMap<>();
        for (PlacementRecord p : view.placements().values()) {
            if (p.cluster().isPresent()
                    && (p.state() == PlacementRecord.State.PLACED || p.state() == PlacementRecord.State.APPLIED)) {
                WorkloadSummary member = view.members().get(p.uid());
                if (member == null
                        || !member.phase().equals("Running") && !member.phase().equals("Completed")) {
                    pending.merge(p.cluster().get(), 1, Integer::sum);
                }
            }
        }
        return pending;
    }

    public static ObjectNode placement(PlacementRecord p) {
        try {
            ObjectNode o = (ObjectNode) Documents.json().readTree(Wire.encode(p));
            o.remove("schema");
            o.remove("type");
            return o;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The placements whose uid {@code visible} accepts. */
    public static ObjectNode placements(BrokerView view, Predicate<String> visible) {
        ObjectNode o = Documents.json().createObjectNode();
        ArrayNode items = o.putArray("placements");
        view.placements().values().stream()
                .filter(p -> visible.test(p.uid()))
                .sorted(Comparator.comparing((PlacementRecord p) -> p.target().toString()))
                .forEach(p -> items.add(placement(p)));
        return o;
    }

    /**
     * The federated workloads whose uid {@code visible} accepts: where each is, its state and the member's
     * phase, its place in the queue.
     */
    public static ObjectNode workloads(BrokerView view, Predicate<String> visible) {
        ObjectNode o = Documents.json().createObjectNode();
        ArrayNode items = o.putArray("workloads");
        Map<String, Integer> positions = new HashMap<>(); // the queue's order, looked up once per workload
        for (int i = 0; i < view.queue().size(); i++) {
            positions.put(view.queue().get(i), i);
        }
        view.placements().values().stream()
                .filter(p -> visible.test(p.uid()))
                .sorted(Comparator.comparing((PlacementRecord p) -> p.target().toString()))
                .forEach(p -> items.add(workload(view, p, positions.getOrDefault(p.uid(), -1))));
        return o;
    }

    /**
     * One federated workload as {@link #workloads} lists it, with the latest decision's explanation per cluster
     * ({@code verdicts}: the chosen cluster first, then those that fit by score, then the others; why each does or
     * does not take it).
     */
    public static ObjectNode explained(BrokerView view, PlacementRecord p) {
        ObjectNode w = workload(view, p);
        dev.cartograph.placement.Decision d = view.decisions().get(p.uid());
        if (d != null) {
            String chosen = d.chosen().orElse("");
            ArrayNode verdicts = w.putArray("verdicts");
            d.clusters().stream()
                    .sorted(Comparator.comparing((dev.cartograph.placement.Decision.Verdict v) ->
                                    !v.cluster().equals(chosen))
                            .thenComparing(v -> !v.fits())
                            .thenComparingLong(dev.cartograph.placement.Decision.Verdict::score)
                            .thenComparing(dev.cartograph.placement.Decision.Verdict::cluster))
                    .forEach(v -> verdicts.addObject()
                            .put("cluster", v.cluster())
                            .put("chosen", v.cluster().equals(chosen))
                            .put("fits", v.fits())
                            .put("reason", v.reason()));
        }
        return w;
    }

    /** One federated workload, as {@link #workloads} lists it. */
    public static ObjectNode workload(BrokerView view, PlacementRecord p) {
        return workload(view, p, view.queue().indexOf(p.uid()));
    }

    /** @param position its index in the queue, -1 when it is not queued */
    private static ObjectNode workload(BrokerView view, PlacementRecord p, int position) {
        ObjectNode w = Documents.json()
                .createObjectNode()
                .put("uid", p.uid())
                .put("namespace", p.target().namespace())
                .put("apiVersion", p.target().apiVersion())
                .put("kind", p.target().kind())
                .put("name", p.target().name());
        p.cluster().ifPresentOrElse(c -> w.put("cluster", c), () -> w.putNull("cluster"));
        w.put("epoch", p.epoch()).put("state", p.state().name()).put("reason", p.reason());
        if (!p.refusals().isEmpty()) {
            ObjectNode refusals = w.putObject("refusals");
            new java.util.TreeMap<>(p.refusals()).forEach(refusals::put);
        }
        WorkloadSummary m = view.members().get(p.uid());
        if (m != null) {
            w.put("phase", m.phase())
                    .put("pods", m.pods())
                    .put("gpus", m.resources().gpus());
        }
        if (position >= 0) {
            w.put("queuePosition", position + 1);
        }
        w.put("priority", p.priority()).put("submitted", p.submitted().toString());
        return w;
    }

    /**
     * Every queue (ADR 0006): weight, parent, per GPU model nominal / in use / borrowed, the totals, waiting gangs,
     * weighted share and problems with its Queue object; {@code queues} is empty without Queues on the hub.
     */
    public static ObjectNode queues(BrokerView view) {
        ObjectNode o = Documents.json().createObjectNode();
        ArrayNode rows = o.putArray("queues");
        for (dev.cartograph.fairshare.QueueReport.Row q : view.queues().queues()) {
            ObjectNode row = rows.addObject();
            row.put("name", q.name());
            q.parent().ifPresent(parent -> row.put("parent", parent));
            row.put("weight", q.weight());
            row.setAll(Documents.json().<ObjectNode>valueToTree(q.status()));
        }
        return o;
    }

    public static ObjectNode error(String code, String message) {
        ObjectNode o = Documents.json().createObjectNode();
        o.putObject("error").put("code", code).put("message", message);
        return o;
    }
}
