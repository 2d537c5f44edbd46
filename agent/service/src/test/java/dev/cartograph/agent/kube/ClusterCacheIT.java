package dev.cartograph.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.capacity.NodeCapacity;
import dev.cartograph.agent.report.Owners;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.protocol.NodeState;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's informer caches against a fabric8 mock API server (CRUD mode): what they hold after trimming gives
 * the same capacity, owners and workloads as the full objects the API server holds, one pod informer answers for
 * capacity and for Pods as workloads, and changes reach the caches and are signalled.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class ClusterCacheIT {
    static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");
    static final GroupVersionKind JOB = new GroupVersionKind("batch", "v1", "Job");

    /** Pods: two running on gpu-a (4 and 2 GPUs), one succeeded there (2, holds nothing), the Job's pod unbound. */
    static final String PODS = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: a
              namespace: ml
              labels: {app: a}
              managedFields: [{manager: kubectl-client-side-apply, operation: Update, fieldsType: FieldsV1, fieldsV1: {"f:spec": {}}}]
            spec: {nodeName: gpu-a, containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "4"}}}]}
            status: {phase: Running}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: b, namespace: ml}
            spec:
              nodeName: gpu-a
              initContainers: [{name: i, image: x, restartPolicy: Always, resources: {requests: {cpu: "1"}}}]
              containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "2", cpu: "3"}}}]
            status: {phase: Running}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: done, namespace: ml}
            spec: {nodeName: gpu-a, containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "2"}}}]}
            status: {phase: Succeeded}
            """;

    KubernetesClient client;
    final List<ClusterCache.Change> changes = new CopyOnWriteArrayList<>();
    ClusterCache cache;

    @BeforeEach
    void cluster() throws Exception {
        for (JsonNode node : KeptTest.yaml(KeptTest.NODES)) {
            client.nodes()
                    .resource(Documents.json().treeToValue(node, Node.class))
                    .create();
        }
        for (JsonNode pod : KeptTest.yaml(PODS)) {
            client.pods()
                    .inNamespace("ml")
                    .resource(Documents.json().treeToValue(pod, Pod.class))
                    .create();
        }
        List<JsonNode> owned = KeptTest.yaml(KeptTest.OWNED);
        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace("ml")
                .resource(Documents.json().treeToValue(owned.get(0), Job.class))
                .create();
        Pod jobPod = Documents.json().treeToValue(owned.get(1), Pod.class);
        jobPod.getMetadata()
                .getOwnerReferences()
                .get(0)
                .setUid(job.getMetadata().getUid());
        jobPod.getSpec().setNodeName(null); // not yet scheduled: the Job's pending demand
        client.pods().inNamespace("ml").resource(jobPod).create();
    }

    @AfterEach
    void close() {
        if (cache != null) {
            cache.close();
        }
    }

    ClusterCache start(Definitions definitions) {
        cache = new ClusterCache(client, definitions, changes::add);
        cache.start();
        return cache;
    }

    List<JsonNode> trees(List<? extends HasMetadata> objects) {
        return objects.stream()
                .map(o -> (JsonNode) Documents.json().valueToTree(o))
                .toList();
    }

    @Test
    void capacityFromTheTrimmedCachesIsCapacityFromTheFullObjects() {
        start(Catalog.load().definitions());

        List<NodeState> cached = NodeCapacity.of(cache.nodes(), cache.pods());

        assertThat(cached)
                .containsExactlyInAnyOrderElementsOf(NodeCapacity.of(
                        trees(client.nodes().list().getItems()),
                        trees(client.pods().inAnyNamespace().list().getItems())));
        // by hand: a 4 + b 2 GPUs on gpu-a (done has succeeded, the Job's pod is unbound); b: 3 CPUs + 1 sidecar
        NodeState gpu = cached.stream()
                .filter(n -> n.name().equals("gpu-a"))
                .findFirst()
                .orElseThrow();
        assertThat(gpu.allocated().amounts())
                .containsEntry("nvidia.com/gpu", new BigDecimal("6"))
                .containsEntry("cpu", new BigDecimal("4"))
                .containsEntry("pods", new BigDecimal("2"));
        assertThat(gpu.taints()).hasSize(1);
        assertThat(cache.nodes()).allMatch(n -> !n.path("status").has("images"));
    }

    @Test
    void oneCacheHoldsPodsForCapacityAndAsWorkloads() {
        start(Catalog.load().definitions());

        assertThat(cache.pods()).hasSize(4);
        // 4 pods and the Job; the Pod workloads are the capacity cache's pods, announced as a new informer would
        assertThat(cache.workloads()).hasSize(5);
        assertThat(changes)
                .contains(
                        new ClusterCache.Change.Workload(POD, "ml", "a"),
                        new ClusterCache.Change.Workload(POD, "ml", "train-0"),
                        new ClusterCache.Change.Workload(JOB, "ml", "train"));
        JsonNode a = cache.workload(POD, "ml", "a").orElseThrow();
        assertThat(a.path("metadata").has("managedFields")).isFalse();
        assertThat(a.path("metadata").path("labels").path("app").asText()).isEqualTo("a");
        assertThat(a.path("spec").path("containers").get(0).path("image").asText())
                .isEqualTo("x");
        JsonNode job = cache.workload(JOB, "ml", "train").orElseThrow();
        assertThat(Owners.of(cache.workloads(), cache.pods()).podsOf(job))
                .extracting(p -> p.path("metadata").path("name").asText())
                .containsExactly("train-0");
    }

    @Test
    void withoutAPodDefinitionPodsAreOnlyCapacity() {
        start(Definitions.of(Catalog.load().definitions().all().stream()
                .filter(d -> !d.kind().equals(POD))
                .toList()));

        assertThat(cache.pods()).hasSize(4);
        assertThat(cache.workloads()).hasSize(1);
        assertThat(cache.workload(POD, "ml", "a")).isEmpty();
        assertThat(changes)
                .noneMatch(c ->
                        c instanceof ClusterCache.Change.Workload w && w.kind().equals(POD));
    }

    @Test
    void podChangesReachTheCacheAndAreSignalled() throws Exception {
        start(Catalog.load().definitions());
        changes.clear();

        Pod b = client.pods().inNamespace("ml").withName("b").get();
        b.getStatus().setPhase("Succeeded");
        client.pods().inNamespace("ml").resource(b).update();
        Eventually.until(Duration.ofSeconds(20), () -> gpusAllocated("gpu-a") == 4);
        // the cache is updated before the change is signalled, on the informer's thread: wait for the signal too
        Eventually.until(
                Duration.ofSeconds(20),
                () -> changes.contains(new ClusterCache.Change.Capacity())
                        && changes.contains(new ClusterCache.Change.Workload(POD, "ml", "b")),
                () -> "both changes signalled: " + changes);
        assertThat(changes)
                .contains(new ClusterCache.Change.Capacity(), new ClusterCache.Change.Workload(POD, "ml", "b"));

        client.pods().inNamespace("ml").withName("a").delete();
        Eventually.until(
                Duration.ofSeconds(20), () -> cache.workload(POD, "ml", "a").isEmpty());
        assertThat(gpusAllocated("gpu-a")).isZero();
        assertThat(cache.pods()).hasSize(3);
    }

    long gpusAllocated(String node) {
        return NodeCapacity.of(cache.nodes(), cache.pods()).stream()
                .filter(n -> n.name().equals(node))
                .mapToLong(n -> n.allocated().gpus())
                .sum();
    }
}
