package dev.cartograph.broker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.AgentRuntime;
import dev.cartograph.agent.AgentSettings;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.broker.hub.HubConnection;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.placement.Planner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A federation for integration tests: a hub and member clusters as fabric8 mock API servers (CRUD
 * mode), one real agent per member and a real broker, wired through a real Kafka broker under a
 * fresh topic prefix. Closes everything it started.
 */
final class Federation implements AutoCloseable {
    static final ResourceDefinitionContext PYTORCHJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withKind("PyTorchJob")
            .withPlural("pytorchjobs")
            .withNamespaced(true)
            .build();
    static final ResourceDefinitionContext JOBS = new ResourceDefinitionContext.Builder()
            .withGroup("batch")
            .withVersion("v1")
            .withKind("Job")
            .withPlural("jobs")
            .withNamespaced(true)
            .build();

    /** The Kafka the federation uses: anything with bootstrap servers (in-process or a container). */
    interface Kafka {
        String bootstrapServers();
    }

    final Kafka kafka;
    final String prefix;
    final Definitions catalog = Catalog.load().definitions();
    /** The hub's answers to TokenReviews and SubjectAccessReviews (the REST API's callers), set by the test. */
    final HubReviews reviews = new HubReviews();

    final KubernetesMockServer hubServer = server(reviews);
    final KubernetesClient hub = hubServer.createClient();
    final Map<String, KubernetesMockServer> memberServers = new LinkedHashMap<>();
    final Map<String, KubernetesClient> members = new LinkedHashMap<>();
    final Map<String, AgentRuntime> agents = new HashMap<>();
    final List<BrokerRuntime> brokers = new ArrayList<>();
    Duration heartbeatTimeout = Duration.ofSeconds(3);
    Duration failoverTimeout = Duration.ofSeconds(6);

    Federation(Kafka kafka) {
        this(kafka, "fed" + Long.toHexString(System.nanoTime()));
    }

    Federation(Kafka kafka, String prefix) {
        this.kafka = kafka;
        this.prefix = prefix;
        crd(hub);
        try (java.io.InputStream in = Federation.class.getResourceAsStream("/crds/clusters.cartograph.dev.yaml")) {
            hub.resource(hub.getKubernetesSerialization()
                            .unmarshal(
                                    in,
                                    io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class))
                    .create();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Writes a kubeconfig for the hub to {@code file}, for a broker started as the Micronaut service. */
    Path writeHubKubeconfig(Path file) throws java.io.IOException {
        return java.nio.file.Files.writeString(
                file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: hub, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: hub, context: {cluster: hub, user: u}}]
                current-context: hub
                """.formatted(hub.getConfiguration().getMasterUrl()));
    }

    static KubernetesMockServer server() {
        return server(new KubernetesCrudDispatcher(List.of()));
    }

    static KubernetesMockServer server(KubernetesCrudDispatcher dispatcher) {
        KubernetesMockServer s =
                new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        s.init();
        return s;
    }

    /** A namespaced CRD that keeps any fields (what tests need of a kind the catalog does not know). */
    static void crd(KubernetesClient client, String group, String version, String kind, String plural, String scope) {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName(plural + "." + group)
                        .endMetadata()
                        .withNewSpec()
                        .withGroup(group)
                        .withScope(scope)
                        .withVersions(new CustomResourceDefinitionVersionBuilder()
                                .withName(version)
                                .withServed(true)
                                .withStorage(true)
                                .build())
                        .withNewNames()
                        .withKind(kind)
                        .withPlural(plural)
                        .withSingular(kind.toLowerCase())
                        .endNames()
                        .endSpec()
                        .build())
                .create();
    }

    static void crd(KubernetesClient client) {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName("pytorchjobs.kubeflow.org")
                        .endMetadata()
                        .withNewSpec()
                        .withGroup("kubeflow.org")
                        .withScope("Namespaced")
                        .withVersions(new CustomResourceDefinitionVersionBuilder()
                                .withName("v1")
                                .withServed(true)
                                .withStorage(true)
                                .withNewSubresources()
                                .withNewStatus()
                                .endStatus()
                                .endSubresources()
                                .build())
                        .withNewNames()
                        .withKind("PyTorchJob")
                        .withPlural("pytorchjobs")
                        .withSingular("pytorchjob")
                        .endNames()
                        .endSpec()
                        .build())
                .create();
    }

    /** A member with {@code nodes} nodes of 8 GPUs of {@code product}, {@code used[i]} GPUs already taken on node i. */
    Federation member(String name, String product, int nodes, int... used) {
        KubernetesMockServer server = server();
        KubernetesClient client = server.createClient();
        crd(client);
        for (int i = 0; i < nodes; i++) {
            create(client, null, """
                    apiVersion: v1
                    kind: Node
                    metadata: {name: %s-n%d, labels: {nvidia.com/gpu.product: %s, kubernetes.io/hostname: %s-n%d}}
                    status:
                      allocatable: {cpu: "96", memory: 1Ti, nvidia.com/gpu: "8", pods: "110"}
                      conditions: [{type: Ready, status: "True"}]
                    """.formatted(name, i, product, name, i));
            if (i < used.length && used[i] > 0) {
                create(client, null, """
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: used-%d, namespace: preexisting}
                        spec:
                          nodeName: %s-n%d
                          containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d"}}}]
                        status: {phase: Running}
                        """.formatted(i, name, i, used[i]));
            }
        }
        memberServers.put(name, server);
        members.put(name, client);
        startAgent(name);
        return this;
    }

    AgentRuntime startAgent(String name) {
        AgentSettings settings = new AgentSettings(
                        name,
                        Map.of(),
                        prefix,
                        Map.of("bootstrap.servers", kafka.bootstrapServers()),
                        Duration.ofMillis(200),
                        Duration.ofSeconds(1),
                        Set.of(),
                        true)
                .withTopicSettings(dev.cartograph.protocol.TopicSettings.SINGLE_BROKER);
        AgentRuntime agent =
                new AgentRuntime(settings, new MemberCluster(members.get(name)), catalog, Clock.systemUTC());
        agent.start();
        agents.put(name, agent);
        return agent;
    }

    void stopAgent(String name) {
        agents.remove(name).close();
    }

    BrokerRuntime startBroker(String id, boolean leaderElection) throws Exception {
        BrokerSettings settings = new BrokerSettings(
                        id,
                        prefix,
                        Map.of("bootstrap.servers", kafka.bootstrapServers()),
                        heartbeatTimeout,
                        failoverTimeout,
                        "cartograph.dev/federate=true",
                        Planner.Policy.BIN_PACK,
                        false,
                        leaderElection ? "cartograph-system" : "",
                        "cartograph-broker",
                        Duration.ofMillis(250))
                .withTopicSettings(dev.cartograph.protocol.TopicSettings.SINGLE_BROKER);
        BrokerRuntime broker = new BrokerRuntime(settings, new HubConnection(hub), catalog, Clock.systemUTC());
        broker.start();
        brokers.add(broker);
        return broker;
    }

    static JsonNode yaml(String text) {
        try {
            return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                    .get(0);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static GenericKubernetesResource create(KubernetesClient client, ResourceDefinitionContext ctx, String yaml) {
        GenericKubernetesResource r = Documents.json().convertValue(yaml(yaml), GenericKubernetesResource.class);
        if (ctx == null) {
            return client.resource(r).create();
        }
        if (!Boolean.TRUE.equals(ctx.isNamespaceScoped())) {
            return client.genericKubernetesResources(ctx).resource(r).create();
        }
        return client.genericKubernetesResources(ctx)
                .inNamespace(r.getMetadata().getNamespace())
                .resource(r)
                .create();
    }

    /** A PyTorchJob on the hub, federated: one master and {@code workers} workers, {@code gpus} GPUs each. */
    GenericKubernetesResource submitPyTorchJob(String name, int workers, int gpus, String extraAnnotations) {
        return submitPyTorchJob("ml", name, workers, gpus, extraAnnotations);
    }

    /** As {@link #submitPyTorchJob(String, int, int, String)}, in {@code namespace}. */
    GenericKubernetesResource submitPyTorchJob(
            String namespace, String name, int workers, int gpus, String extraAnnotations) {
        return create(hub, PYTORCHJOBS, """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: %s
                  namespace: %s
                  labels: {cartograph.dev/federate: "true"}
                  annotations: {%s}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template:
                        spec:
                          containers: [{name: pytorch, image: trainer, resources: {limits: {nvidia.com/gpu: "%d"}}}]
                    Worker:
                      replicas: %d
                      template:
                        spec:
                          containers: [{name: pytorch, image: trainer, resources: {limits: {nvidia.com/gpu: "%d"}}}]
                """.formatted(name, namespace, extraAnnotations, gpus, workers, gpus));
    }

    /** A batch/v1 Job on the hub, federated: one pod asking for {@code gpus} GPUs. */
    GenericKubernetesResource submitJob(String name, int gpus) {
        return create(hub, JOBS, """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: ml
                  labels: {cartograph.dev/federate: "true"}
                spec:
                  parallelism: 1
                  completions: 1
                  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d", cpu: "1"}}}]
                """.formatted(name, gpus));
    }

    List<GenericKubernetesResource> copies(String member, ResourceDefinitionContext ctx) {
        return members.get(member)
                .genericKubernetesResources(ctx)
                .inNamespace("ml")
                .list()
                .getItems();
    }

    @Override
    public void close() {
        brokers.forEach(BrokerRuntime::close);
        agents.values().forEach(AgentRuntime::close);
        members.values().forEach(KubernetesClient::close);
        memberServers.values().forEach(KubernetesMockServer::destroy);
        hub.close();
        hubServer.destroy();
    }
}
