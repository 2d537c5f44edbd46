package dev.cartograph.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.agent.capacity.NodeCapacity;
import dev.cartograph.agent.report.Owners;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.NodeState;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The informer store that holds objects as trimmed JSON: readers get the objects the full caches gave them (less
 * what {@link Kept} drops), and the informer gets the item store it relies on.
 */
@Timeout(30)
class CompactStoreTest {
    static <T> T as(JsonNode tree, Class<T> type) throws Exception {
        return Documents.json().treeToValue(tree, type);
    }

    static String text(JsonNode tree) throws Exception {
        return Documents.json().writeValueAsString(tree);
    }

    @Test
    void readersGetTheObjectTheFullCacheGaveThemWithoutManagedFields() throws Exception {
        CompactStore<GenericKubernetesResource> store =
                new CompactStore<>(GenericKubernetesResource.class, Kept::workload);
        for (JsonNode recorded : KeptTest.recordedObjects()) {
            ObjectNode object = recorded.deepCopy();
            object.with("metadata").putArray("managedFields").addObject().put("manager", "kubelet");
            GenericKubernetesResource resource = as(object, GenericKubernetesResource.class);
            store.put(store.getKey(resource), resource);

            ObjectNode before = Documents.json().valueToTree(resource); // what the full cache gave readers
            ((ObjectNode) before.path("metadata")).remove("managedFields");
            assertThat(text(store.tree(store.getKey(resource)).orElseThrow())).isEqualTo(text(before));
        }
    }

    /** Pods were typed objects in the capacity cache and are generic ones now (shared with Pods as workloads). */
    @Test
    void capacityAndOwnersAreTheSameAsFromTheTypedPodCache() throws Exception {
        List<JsonNode> pods = new ArrayList<>(KeptTest.recordedObjects().stream()
                .filter(o -> o.path("kind").asText().equals("Pod"))
                .toList());
        List<JsonNode> owned = KeptTest.yaml(KeptTest.OWNED);
        pods.add(owned.get(1));
        CompactStore<GenericKubernetesResource> store =
                new CompactStore<>(GenericKubernetesResource.class, Kept::workload);
        List<JsonNode> typed = new ArrayList<>();
        Set<String> nodeNames = new TreeSet<>();
        for (int i = 0; i < pods.size(); i++) {
            ObjectNode pod = pods.get(i).deepCopy();
            pod.with("metadata").put("name", "pod-" + i); // the recordings reuse names across states
            store.put("ns/pod-" + i, as(pod, GenericKubernetesResource.class));
            typed.add(Documents.json().valueToTree(as(pod, Pod.class)));
            nodeNames.add(pod.path("spec").path("nodeName").asText());
        }
        List<JsonNode> nodes = new ArrayList<>();
        for (String name : nodeNames) {
            nodes.add(KeptTest.yaml("metadata: {name: '" + name + "'}\nstatus: {allocatable: {cpu: '64', pods: '110'}}")
                    .get(0));
        }

        List<NodeState> fromStore = NodeCapacity.of(nodes, store.trees());

        assertThat(fromStore).isEqualTo(NodeCapacity.of(nodes, typed));
        // by hand: the recorded running pods and the Job's pod are bound to karta-e2e-worker, so something is there
        assertThat(fromStore.stream().filter(n -> n.name().equals("karta-e2e-worker")))
                .singleElement()
                .satisfies(n -> assertThat(n.allocated().amounts()).containsKey("nvidia.com/gpu"));
        assertThat(Owners.of(owned.subList(0, 1), store.trees()).podsOf(owned.get(0)))
                .hasSize(1)
                .isEqualTo(Owners.of(owned.subList(0, 1), typed).podsOf(owned.get(0)));
    }

    @Test
    void actsAsTheInformersItemStore() throws Exception {
        CompactStore<Node> nodes = new CompactStore<>(Node.class, Kept::node);
        Node v1 = as(KeptTest.yaml(KeptTest.NODES).get(0), Node.class);
        Node v2 = as(KeptTest.yaml(KeptTest.NODES).get(0), Node.class);
        v2.getMetadata().setResourceVersion("4713");

        assertThat(nodes.getKey(v1)).isEqualTo("gpu-a");
        assertThat(nodes.put("gpu-a", v1)).isNull();
        // the informer tells an update from a resync by the old object's resourceVersion
        assertThat(nodes.put("gpu-a", v2).getMetadata().getResourceVersion()).isEqualTo("4711");
        assertThat(nodes.get("gpu-a").getMetadata().getResourceVersion()).isEqualTo("4713");
        assertThat(nodes.get("gpu-a").getMetadata().getLabels())
                .isEqualTo(v1.getMetadata().getLabels());
        assertThat(nodes.size()).isEqualTo(1);
        assertThat(nodes.keySet()).containsExactly("gpu-a");
        assertThat(nodes.values()).extracting(n -> n.getMetadata().getName()).containsExactly("gpu-a");
        assertThat(nodes.get("gpu-a").getStatus().getImages()).isEmpty(); // kept: what Kept.node keeps

        assertThat(nodes.remove("gpu-a").getMetadata().getName()).isEqualTo("gpu-a");
        assertThat(nodes.get("gpu-a")).isNull();
        assertThat(nodes.tree("gpu-a")).isEmpty();
        assertThat(nodes.trees()).isEmpty();
    }

    @Test
    void keysANamespacedObjectByNamespaceAndName() throws Exception {
        CompactStore<GenericKubernetesResource> store =
                new CompactStore<>(GenericKubernetesResource.class, Kept::workload);
        GenericKubernetesResource pod = as(KeptTest.yaml(KeptTest.OWNED).get(1), GenericKubernetesResource.class);

        assertThat(store.getKey(pod)).isEqualTo("ml/train-0");
    }
}
