package dev.cartograph.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.view.Phase;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Test fixture for one simulated member: CRDs, nodes, workloads from YAML, and reads through the interpreter. */
final class Member {
    static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());
    static final ResourceDefinitionContext PYTORCHJOBS = context("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs");
    static final ResourceDefinitionContext JOBSETS = context("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets");
    static final ResourceDefinitionContext LWS =
            context("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet", "leaderworkersets");

    private final KubernetesClient client;

    Member(KubernetesClient client) {
        this.client = client;
    }

    static ResourceDefinitionContext context(String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(true)
                .build();
    }

    void installCrd(ResourceDefinitionContext c) {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName(c.getPlural() + "." + c.getGroup())
                        .endMetadata()
                        .withNewSpec()
                        .withGroup(c.getGroup())
                        .withScope("Namespaced")
                        .withNewNames()
                        .withKind(c.getKind())
                        .withPlural(c.getPlural())
                        .endNames()
                        .addNewVersion()
                        .withName(c.getVersion())
                        .withServed(true)
                        .withStorage(true)
                        .withNewSubresources()
                        .withNewStatus()
                        .endStatus()
                        .endSubresources()
                        .endVersion()
                        .endSpec()
                        .build())
                .create();
    }

    void installCrds() {
        installCrd(PYTORCHJOBS);
        installCrd(JOBSETS);
        installCrd(LWS);
    }

    /** A Ready node with 8 GPUs, 64 CPUs, 512Gi and 110 pod slots. */
    void addGpuNode(String name) {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewStatus()
                        .withAllocatable(Map.of(
                                "nvidia.com/gpu",
                                new Quantity("8"),
                                "cpu",
                                new Quantity("64"),
                                "memory",
                                new Quantity("512Gi"),
                                "pods",
                                new Quantity("110")))
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus()
                        .build())
                .create();
    }

    GenericKubernetesResource apply(ResourceDefinitionContext c, String yaml) {
        GenericKubernetesResource r =
                client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
        return client.genericKubernetesResources(c)
                .inNamespace(r.getMetadata().getNamespace())
                .resource(r)
                .create();
    }

    void delete(ResourceDefinitionContext c, String namespace, String name) {
        client.genericKubernetesResources(c)
                .inNamespace(namespace)
                .withName(name)
                .delete();
    }

    Phase phase(ResourceDefinitionContext c, String namespace, String name) {
        GenericKubernetesResource r = client.genericKubernetesResources(c)
                .inNamespace(namespace)
                .withName(name)
                .get();
        JsonNode json = client.getKubernetesSerialization().convertValue(r, JsonNode.class);
        return ((Resolution.Resolved) INTERPRETER.resolve(json)).view().phase();
    }

    List<Pod> podsOf(String namespace, String workload) {
        return client.pods()
                .inNamespace(namespace)
                .withLabel("sim.cartograph.dev/workload", workload)
                .list()
                .getItems();
    }

    Map<String, Integer> gpusPerNode() {
        return client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> p.getSpec().getNodeName() != null
                        && !"Succeeded".equals(p.getStatus().getPhase()))
                .collect(Collectors.groupingBy(
                        p -> p.getSpec().getNodeName(),
                        Collectors.summingInt(p -> p.getSpec().getContainers().stream()
                                .mapToInt(c -> {
                                    Quantity q = c.getResources().getLimits() == null
                                            ? null
                                            : c.getResources().getLimits().get("nvidia.com/gpu");
                                    return q == null ? 0 : Integer.parseInt(q.getAmount());
                                })
                                .sum())));
    }
}
