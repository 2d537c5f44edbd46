package dev.cartograph.placement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Topology requests read from PyTorchJobs annotated as users write them for Kueue, and Cartograph's own. */
class TopologyAsksTest {
    static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());

    static final String JOB = """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              name: train
              namespace: team-a
              annotations: {%s}
            spec:
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  template:
                    metadata: {annotations: {%s}}
                    spec:
                      containers: [{name: pytorch, image: t, resources: {limits: {nvidia.com/gpu: "8"}}}]
                Worker:
                  replicas: 3
                  template:
                    metadata: {annotations: {%s}}
                    spec:
                      containers: [{name: pytorch, image: t, resources: {limits: {nvidia.com/gpu: "8"}}}]
            """;

    static TopologyAsks.Asked read(String workload, String master, String worker) throws Exception {
        JsonNode object = Documents.read(new ByteArrayInputStream(
                        JOB.formatted(workload, master, worker).getBytes(StandardCharsets.UTF_8)))
                .get(0);
        return TopologyAsks.of(object, ((Resolution.Resolved) INTERPRETER.resolve(object)).view());
    }

    @Test
    void nothingAskedIsNoTopology() throws Exception {
        assertThat(read("", "", "")).isEqualTo(new TopologyAsks.Asked(GangTopology.NONE, Optional.empty()));
    }

    @Test
    void cartographsAnnotationAsksForTheWholeGang() throws Exception {
        assertThat(read("cartograph.dev/required-topology: nvidia.com/gpu.clique", "", "")
                        .topology())
                .isEqualTo(GangTopology.required("nvidia.com/gpu.clique"));
        assertThat(read("cartograph.dev/preferred-topology: cartograph.dev/rack", "", "")
                        .topology())
                .isEqualTo(GangTopology.preferred("cartograph.dev/rack"));
    }

    @Test
    void kueuesPodSetAnnotationAsksForThatPodSetOnly() throws Exception {
        TopologyAsks.Asked asked = read("", "", "kueue.x-k8s.io/podset-required-topology: nvidia.com/gpu.clique");
        assertThat(asked.topology())
                .isEqualTo(GangTopology.required("nvidia.com/gpu.clique").of(Set.of("worker")));
        assertThat(asked.problem()).isEmpty();
        // on both pod sets, and required beats preferred
        TopologyAsks.Asked both = read(
                "kueue.x-k8s.io/podset-preferred-topology: topology.kubernetes.io/zone",
                "kueue.x-k8s.io/podset-required-topology: nvidia.com/gpu.clique",
                "kueue.x-k8s.io/podset-required-topology: nvidia.com/gpu.clique");
        assertThat(both.topology())
                .isEqualTo(GangTopology.required("nvidia.com/gpu.clique").of(Set.of("master", "worker")));
    }

    @Test
    void twoLevelsOrAValueThatIsNoLabelKeyAreRefusedWithTheReason() throws Exception {
        assertThat(read(
                                "",
                                "kueue.x-k8s.io/podset-required-topology: topology.kubernetes.io/zone",
                                "kueue.x-k8s.io/podset-required-topology: nvidia.com/gpu.clique")
                        .problem())
                .contains("the required topology names several levels (master: topology.kubernetes.io/zone, worker:"
                        + " nvidia.com/gpu.clique); a gang is kept in one domain of one level: ask for one");
        assertThat(read("cartograph.dev/required-topology: 'rack please'", "", "")
                        .problem())
                .contains("annotation cartograph.dev/required-topology on the workload is 'rack please', not a node"
                        + " label key (for example nvidia.com/gpu.clique or topology.kubernetes.io/zone)");
    }
}
