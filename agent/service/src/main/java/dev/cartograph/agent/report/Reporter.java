package dev.cartograph.agent.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.agent.capacity.NodeCapacity;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.resources.PodRequests;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.interpreter.view.WorkloadView;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.protocol.UnwatchedKind;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds the records an agent publishes from what its informers hold: the cluster summary and one
 * summary per workload. Owns the incarnation (new per agent start) and the sequence counter.
 * Thread-safe (the sequence is atomic; everything else is pure).
 */
public final class Reporter {
    private final String cluster;
    private final Map<String, String> labels;
    private final String agentVersion;
    private final String incarnation;
    private final AtomicLong sequence = new AtomicLong();

    public Reporter(String cluster, Map<String, String> labels, String agentVersion, String incarnation) {
        this.cluster = cluster;
        this.labels = Map.copyOf(labels);
        this.agentVersion = agentVersion;
        this.incarnation = incarnation;
    }

    public String incarnation() {
        return incarnation;
    }

    /**
     * The cluster summary: node capacity, and per placement this agent applied its epoch and the
     * demand of its pods that are not yet running on a node. What is pending counts the pods the
     * workload should have (its gang minimum, else its desired pods, by the interpreter) that are not
     * yet bound, so a workload whose controller has not created its pods yet still holds its
     * reservation at the broker; a finished workload holds nothing.
     *
     * @param placed the objects this agent created (marked with a placement id)
     * @param podsOf the pods of one such object (found by owner references)
     * @param unwatched the catalog kinds the agent cannot watch for now: their copies are not in {@code placed}
     */
    public ClusterSummary cluster(
            Interpreter interpreter,
            List<JsonNode> nodes,
            List<JsonNode> pods,
            List<JsonNode> placed,
            java.util.function.Function<JsonNode, List<JsonNode>> podsOf,
            List<UnwatchedKind> unwatched,
            Instant now) {
        List<PlacementReport> placements = new ArrayList<>();
        for (JsonNode object : placed) {
            Optional<String> id = Ownership.placementId(object);
            if (id.isEmpty()) {
                continue;
            }
            int unbound = 0;
            ResourceList unboundDemand = ResourceList.EMPTY;
            int bound = 0;
            ResourceList boundDemand = ResourceList.EMPTY;
            for (JsonNode pod : podsOf.apply(object)) {
                if (NodeCapacity.terminal(pod)) {
                    continue;
                }
                ResourceList request = PodRequests.of(pod.path("spec")).request();
                if (pod.path("spec").path("nodeName").asText("").isEmpty()) {
                    unbound++;
                    unboundDemand = unboundDemand.plus(request);
                } else {
                    bound++;
                    boundDemand = boundDemand.plus(request);
                }
            }
            int pending = unbound;
            ResourceList demand = unboundDemand;
            if (interpreter.resolve(object) instanceof Resolution.Resolved r) {
                if (r.view().phase() == Phase.COMPLETED || r.view().phase() == Phase.FAILED) {
                    pending = 0;
                    demand = ResourceList.EMPTY;
                } else {
                    Expected e = expected(r.view());
                    pending = (int) Math.max(unbound, e.pods() - bound);
                    demand = unboundDemand.max(positive(e.demand().minus(boundDemand)));
                }
            }
            placements.add(new PlacementReport(id.get(), Ownership.epoch(object).orElse(0L), pending, demand));
        }
        return new ClusterSummary(
                cluster,
                labels,
                agentVersion,
                incarnation,
                sequence.incrementAndGet(),
                now,
                NodeCapacity.of(nodes, pods),
                placements,
                unwatched);
    }

    private record Expected(long pods, ResourceList demand) {}

    /** The pods a workload should run: its gang minimum when it has one, else every desired pod. */
    private static Expected expected(WorkloadView v) {
        boolean gang = v.gang().minMember() > 0;
        long pods = 0;
        ResourceList demand = ResourceList.EMPTY;
        for (ComponentView c : v.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (i.hasPods()) {
                    long n = gang ? i.replicas().min() : i.replicas().desired();
                    pods += n;
                    demand = demand.plus(i.perPod().times(n));
                }
            }
        }
        return new Expected(pods, demand);
    }

    private static ResourceList positive(ResourceList list) {
        java.util.Map<String, java.math.BigDecimal> out = new java.util.TreeMap<>();
        list.amounts().forEach((k, v) -> {
            if (v.signum() > 0) {
                out.put(k, v);
            }
        });
        return new ResourceList(out);
    }

    /** A workload's summary, or empty when no definition covers it. */
    public Optional<WorkloadSummary> workload(Interpreter interpreter, JsonNode object, Instant now) {
        if (!(interpreter.resolve(object) instanceof Resolution.Resolved r)) {
            return Optional.empty();
        }
        WorkloadView v = r.view();
        String apiVersion = v.identity().apiVersion();
        List<WorkloadSummary.Role> roles = new ArrayList<>();
        for (ComponentView c : v.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (i.hasPods()) {
                    roles.add(new WorkloadSummary.Role(
                            c.name(),
                            i.id(),
                            i.replicas().desired(),
                            i.replicas().min(),
                            i.replicas().max(),
                            i.perPod()));
                }
            }
        }
        return Optional.of(new WorkloadSummary(
                key(object),
                apiVersion,
                incarnation,
                sequence.incrementAndGet(),
                now,
                Ownership.placementId(object),
                v.phase().displayName(),
                v.status().phases().stream().map(Phase::displayName).toList(),
                v.totals().pods(),
                v.totals().resources(),
                v.gang().minMember(),
                roles,
                object.path("status")));
    }

    public WorkloadKey key(JsonNode object) {
        String apiVersion = object.path("apiVersion").asText("");
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        return new WorkloadKey(
                cluster,
                object.path("metadata").path("namespace").asText(""),
                group,
                object.path("kind").asText(),
                object.path("metadata").path("name").asText());
    }
}
