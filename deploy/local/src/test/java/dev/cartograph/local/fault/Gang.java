package dev.cartograph.local.fault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * One gang of the fault suite's workload: a PyTorchJob (a master and {@code pods - 1} workers) or a batch
 * Job ({@code parallelism = pods}), every pod asking for {@code gpus} GPUs, optionally of one GPU model.
 *
 * @param fitsNowhere whether no single cluster of the default profile could ever hold every pod at once: see
 *                    {@link #FREE}
 */
record Gang(String name, Kind kind, int pods, int gpus, Optional<String> product, boolean fitsNowhere) {
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final String A100 = "NVIDIA-A100-SXM4-80GB";
    static final String L40S = "NVIDIA-L40S";

    /**
     * Free GPUs per node, by cluster and model, by hand from the default fleet profile before any gang runs (its
     * pre-existing pods never finish, so there is never more room than this).
     */
    static final Map<String, Map<String, List<Integer>>> FREE = Map.of(
            "gpu-east", Map.of(H100, List.of(8, 8, 6, 0)),
            "gpu-west", Map.of(A100, List.of(8, 8, 8, 8, 4, 4, 2, 0)),
            "gpu-edge", Map.of(L40S, List.of(4, 3)));

    enum Kind {
        PYTORCHJOB(new ResourceDefinitionContext.Builder()
                .withGroup("kubeflow.org")
                .withVersion("v1")
                .withKind("PyTorchJob")
                .withPlural("pytorchjobs")
                .withNamespaced(true)
                .build()),
        JOB(new ResourceDefinitionContext.Builder()
                .withGroup("batch")
                .withVersion("v1")
                .withKind("Job")
                .withPlural("jobs")
                .withNamespaced(true)
                .build());

        final ResourceDefinitionContext context;

        Kind(ResourceDefinitionContext context) {
            this.context = context;
        }
    }

    /**
     * A seeded gang: mostly small (1–4 pods of 1–8 GPUs), a model picked for one in four, and one in fifteen that
     * asks for more than any node has (16 GPUs in a pod) or three whole H100 nodes.
     */
    static Gang random(String name, Random random) {
        Kind kind = random.nextInt(3) == 0 ? Kind.JOB : Kind.PYTORCHJOB;
        if (random.nextInt(15) == 0) {
            return random.nextBoolean()
                    ? of(name, kind, 1, 16, Optional.empty())
                    : of(name, kind, 3, 8, Optional.of(H100));
        }
        int pods = pick(random, List.of(1, 1, 1, 1, 2, 2, 2, 3, 4, 4));
        int gpus = pick(random, List.of(1, 1, 1, 2, 2, 2, 4, 4, 8, 8));
        Optional<String> product =
                random.nextInt(4) == 0 ? Optional.of(pick(random, List.of(H100, A100, L40S))) : Optional.empty();
        return of(name, kind, pods, gpus, product);
    }

    private static Gang of(String name, Kind kind, int pods, int gpus, Optional<String> product) {
        boolean fits = FREE.values().stream()
                .anyMatch(models -> models.entrySet().stream()
                                .filter(m -> product.isEmpty() || product.get().equals(m.getKey()))
                                .mapToInt(m -> m.getValue().stream()
                                        .mapToInt(free -> free / gpus)
                                        .sum())
                                .sum()
                        >= pods);
        return new Gang(name, kind, pods, gpus, product, !fits);
    }

    private static <T> T pick(Random random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    int totalGpus() {
        return pods * gpus;
    }

    GenericKubernetesResource manifest() {
        ObjectNode o = Documents.json().createObjectNode();
        ObjectNode meta = o.putObject("metadata").put("name", name).put("namespace", Clusters.NAMESPACE);
        meta.putObject("annotations")
                .put(
                        "fault-suite.cartograph.dev/shape",
                        pods + "x" + gpus + product.map(p -> " " + p).orElse(""));
        if (kind == Kind.PYTORCHJOB) {
            o.put("apiVersion", "kubeflow.org/v1").put("kind", "PyTorchJob");
            ObjectNode specs = o.putObject("spec").putObject("pytorchReplicaSpecs");
            template(specs.putObject("Master").put("replicas", 1).putObject("template"), "pytorch");
            if (pods > 1) {
                template(specs.putObject("Worker").put("replicas", pods - 1).putObject("template"), "pytorch");
            }
        } else {
            o.put("apiVersion", "batch/v1").put("kind", "Job");
            ObjectNode spec = o.putObject("spec").put("parallelism", pods).put("completions", pods);
            template(spec.putObject("template"), "work").put("restartPolicy", "Never");
        }
        return Documents.json().convertValue(o, GenericKubernetesResource.class);
    }

    private ObjectNode template(ObjectNode template, String container) {
        ObjectNode spec = template.putObject("spec");
        product.ifPresent(p -> spec.putObject("nodeSelector").put("nvidia.com/gpu.product", p));
        spec.putArray("containers")
                .addObject()
                .put("name", container)
                .put("image", "example/train:1")
                .putObject("resources")
                .putObject("limits")
                .put("nvidia.com/gpu", Integer.toString(gpus));
        return spec;
    }

    @Override
    public String toString() {
        return name + " (" + kind + " " + pods + "x" + gpus
                + product.map(p -> " " + p).orElse("") + (fitsNowhere ? ", fits nowhere" : "") + ")";
    }
}
