package dev.cartograph.testing;

import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Nodes and resource lists for broker tests, written by hand. */
public final class Nodes {
    public static final String H100 = "NVIDIA-H100-80GB-HBM3";
    public static final String A100 = "NVIDIA-A100-SXM4-80GB";

    private Nodes() {}

    public static ResourceList res(String... kv) {
        TreeMap<String, BigDecimal> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]).orElseThrow());
        }
        return new ResourceList(m);
    }

    /** A ready, schedulable node: 64 CPUs, 512Gi, {@code gpus} GPUs of {@code product}, {@code usedGpus} taken. */
    public static NodeState node(String name, String product, int gpus, int usedGpus) {
        return new NodeState(
                name,
                Map.of(NodeState.GPU_PRODUCT, product),
                List.of(),
                true,
                true,
                res("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", String.valueOf(gpus), "pods", "110"),
                usedGpus == 0 ? ResourceList.EMPTY : res("nvidia.com/gpu", String.valueOf(usedGpus)));
    }
}
