package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fleet and workloads made up for the coordinator's benchmarks: clusters of 8-GPU nodes, one GPU
 * model per cluster, and federated Jobs of {@code pods} pods × {@code gpus} GPUs, optionally pinned
 * to a GPU model. Fleet size comes from {@code -Dclusters} and {@code -Dnodes}.
 */
final class SyntheticFleet {
    static final int CLUSTERS = Integer.getInteger("clusters", 100);
    static final int NODES = Integer.getInteger("nodes", 1000);
    static final String[] PRODUCTS = {"NVIDIA-H100-80GB-HBM3", "NVIDIA-A100-SXM4-80GB", "NVIDIA-L40S"};

    private SyntheticFleet() {}

    static String product(int cluster) {
        return PRODUCTS[cluster % PRODUCTS.length];
    }

    static NodeState node(String name, String product, int usedGpus) {
        return new NodeState(
                name,
                Map.of(NodeState.GPU_PRODUCT, product),
                List.of(),
                true,
                true,
                CoordinatorHarness.res("nvidia.com/gpu", "8", "cpu", "64", "memory", "512Gi", "pods", "110"),
                CoordinatorHarness.res("nvidia.com/gpu", String.valueOf(usedGpus)));
    }

    /** Cluster {@code c}'s nodes, each with {@code usedGpus} of its 8 GPUs in use. */
    static List<NodeState> nodes(int c, int usedGpus) {
        List<NodeState> nodes = new ArrayList<>(NODES);
        for (int n = 0; n < NODES; n++) {
            nodes.add(node("c" + c + "-n" + n, product(c), usedGpus));
        }
        return nodes;
    }

    static ClusterSummary summary(
            int c, long sequence, Instant heartbeat, List<NodeState> nodes, List<PlacementReport> placements) {
        return new ClusterSummary("c" + c, Map.of(), "v", "inc", sequence, heartbeat, nodes, placements);
    }

    /** A federated Job: {@code pods} pods (its parallelism) of {@code gpus} GPUs each, on {@code product} when not empty. */
    static JsonNode job(String name, String uid, Instant created, int pods, int gpus, String product) {
        ObjectNode job = Documents.json().createObjectNode();
        job.put("apiVersion", "batch/v1").put("kind", "Job");
        ObjectNode meta = job.putObject("metadata");
        meta.put("name", name).put("namespace", "ml").put("uid", uid).put("creationTimestamp", created.toString());
        meta.putObject("labels").put("cartograph.dev/federate", "true");
        ObjectNode spec = job.putObject("spec");
        spec.put("parallelism", pods);
        ObjectNode pod = spec.putObject("template").putObject("spec");
        if (!product.isEmpty()) {
            pod.putObject("nodeSelector").put(NodeState.GPU_PRODUCT, product);
        }
        ObjectNode container = pod.putArray("containers").addObject();
        container.put("name", "c").put("image", "x");
        container.putObject("resources").putObject("requests").put("nvidia.com/gpu", String.valueOf(gpus));
        return job;
    }
}
