package dev.cartograph.broker.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.fleet.FleetReport;
import dev.cartograph.fleet.Fragmentation;
import dev.cartograph.fleet.NodeMap;
import dev.cartograph.interpreter.Documents;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The fleet in the two sizes the dashboard draws it in, any authenticated caller's to see like {@code GET
 * /api/v1/fleet}: a summary per cluster without its nodes (the GPU rows of {@code /api/v1/fleet}, heartbeat age and how
 * fragmented its free GPUs are), small however many nodes there are; and one cluster's node map, a cell a node.
 */
@Controller("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@ExecuteOn(TaskExecutors.BLOCKING)
public class NodesController {
    /** How long one summary serves every caller (every dashboard polls it; at 1,000 × 1,000 one costs ~0.4 s). */
    static final Duration SUMMARY_FOR = Duration.ofSeconds(1);

    private final BrokerState broker;

    /** A summary made at {@code atNanos} ({@link System#nanoTime}). */
    private record Made(long atNanos, String body) {}

    private volatile Made summary;

    public NodesController(BrokerState broker) {
        this.broker = broker;
    }

    @Get("/fleet/summary")
    @Operation(
            summary = "The fleet per cluster, without nodes",
            description = "Per cluster: readiness, heartbeat and its age, nodes, pending gangs, per GPU model"
                    + " total/allocated/reserved/free and the largest free block (as GET /api/v1/fleet), and"
                    + " nodesByFreeGpus: of its GPU nodes, how many have 0, 1, 2 … GPUs free; unusableGpuNodes. Fleet"
                    + " totals and the queue length.")
    public HttpResponse<String> summary() {
        Made made = summary;
        if (made == null || System.nanoTime() - made.atNanos() > SUMMARY_FOR.toNanos()) {
            made = new Made(System.nanoTime(), summaryOf(broker.view()).toString());
            summary = made;
        }
        return HttpResponse.ok(made.body()).contentType(MediaType.APPLICATION_JSON);
    }

    private ObjectNode summaryOf(BrokerView view) {
        Instant now = broker.clock().instant();
        Duration timeout = broker.settings().heartbeatTimeout();
        FleetReport report = Views.report(view, now, timeout);
        Map<String, Fragmentation> fragmentation = Fragmentation.of(view.fleet(), now, timeout);
        ObjectNode o = Documents.json().createObjectNode();
        ArrayNode clusters = o.putArray("clusters");
        long[] totals = new long[4];
        for (FleetReport.ClusterReport c : report.clusters()) {
            ObjectNode co = clusters.addObject()
                    .put("name", c.name())
                    .put("ready", c.ready())
                    .put("heartbeat", c.heartbeat().toString())
                    .put(
                            "heartbeatAgeSeconds",
                            Math.max(0, Duration.between(c.heartbeat(), now).toSeconds()))
                    .put("nodes", c.nodes())
                    .put("pending", c.pending());
            ArrayNode models = co.putArray("gpuModels");
            for (FleetReport.ModelReport m : c.models()) {
                Views.model(models, m);
                totals[0] += m.total();
                totals[1] += m.allocated();
                totals[2] += m.reserved();
                totals[3] += m.free();
            }
            Fragmentation f = fragmentation.get(c.name());
            ArrayNode byFree = co.putArray("nodesByFreeGpus");
            if (f != null) {
                for (long n : f.byFree()) {
                    byFree.add(n);
                }
                co.put("unusableGpuNodes", f.unusable());
            }
        }
        o.putObject("totals")
                .put("total", totals[0])
                .put("allocated", totals[1])
                .put("reserved", totals[2])
                .put("free", totals[3]);
        o.put("queued", view.queue().size()).put("at", now.toString());
        return o;
    }

    @Get("/clusters/{name}/nodes")
    @Operation(
            summary = "One cluster's node map",
            description = "Every node, in topology domain order (the configured levels' values, widest first, then the"
                    + " name): GPU model, GPUs, allocated, reserved, free, whether it can take a pod, its domains.")
    @ApiResponse(responseCode = "404", description = "no such cluster has reported")
    public HttpResponse<String> nodes(@PathVariable String name) {
        java.util.Optional<NodeMap> map = NodeMap.of(
                broker.view().fleet(),
                name,
                broker.clock().instant(),
                broker.settings().heartbeatTimeout(),
                broker.settings().topologyLevels());
        if (map.isEmpty()) {
            return HttpResponse.<String>notFound()
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(Views.error("not_found", "no cluster named " + name + " has reported")
                            .toString());
        }
        ObjectNode o = Documents.json().createObjectNode();
        o.put("cluster", map.get().cluster()).put("ready", map.get().ready());
        ArrayNode levels = o.putArray("levels");
        map.get().levels().forEach(levels::add);
        ArrayNode nodes = o.putArray("nodes");
        for (NodeMap.Cell c : map.get().nodes()) {
            ObjectNode n = nodes.addObject()
                    .put("name", c.name())
                    .put("gpuModel", c.gpuModel())
                    .put("usable", c.usable())
                    .put("gpus", c.gpus())
                    .put("allocated", c.allocated())
                    .put("reserved", c.reserved())
                    .put("free", c.free());
            ObjectNode domains = n.putObject("domains");
            c.domains().forEach(domains::put);
        }
        return ok(o);
    }

    private static HttpResponse<String> ok(ObjectNode body) {
        return HttpResponse.ok(body.toString()).contentType(MediaType.APPLICATION_JSON);
    }
}
