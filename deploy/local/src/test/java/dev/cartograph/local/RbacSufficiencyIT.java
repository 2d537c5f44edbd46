package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.agent.AgentRuntime;
import dev.cartograph.agent.AgentSettings;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.broker.BrokerRuntime;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.local.kube.MockClusters;
import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.rbac.Denial;
import dev.cartograph.mock.rbac.Rbac;
import dev.cartograph.mock.rbac.RbacPolicy;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.simulator.MemberSimulator;
import dev.cartograph.simulator.SimulatorSettings;
import dev.cartograph.simulator.kube.MemberSimulators;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped RBAC (deploy/rbac) is enough, proven against API servers that enforce it: the hub enforces
 * broker.yaml on the broker's token, the member enforces agent.yaml on the agent's token (reads cluster-wide,
 * writes by the RoleBinding in {@code ml} only), and the real broker and agent talk through real Kafka. A
 * PyTorchJob gang is placed, created on the member, its status mirrored to the hub, counted in its Queue's status,
 * and deleted, with not one request denied on either server (informers, discovery, leader election, Cluster and
 * Queue objects, Events, finalizers included). A gang in a federated namespace the agent has no RoleBinding in fails with the member API server's
 * own forbidden message on the hub object. The simulator and the test's assertions use the servers' own clients,
 * which the mock does not hold to RBAC.
 */
@Timeout(300)
class RbacSufficiencyIT {
    static final String AGENT_TOKEN = "agent-token";
    static final String BROKER_TOKEN = "broker-token";
    static final String AGENT = "system:serviceaccount:cartograph-system:cartograph-agent";
    static final String BROKER = "system:serviceaccount:cartograph-system:cartograph-broker";
    static final String CLUSTER = "gpu-east"; // the only cluster with H100s (the example pins them)
    static final String UNBOUND = "research"; // federated on the hub; no agent RoleBinding on the member

    @TempDir
    Path dir;

    @Test
    void theShippedRbacPlacesRunsMirrorsAndDeletesAGangWithNoDenialAndAnUnboundNamespaceIsRefusedAsForbidden()
            throws Exception {
        Definitions catalog = Catalog.load().definitions();
        FleetOptions options = FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(Duration.ofHours(1));
        ClusterProfile profile = options.profile().cluster(CLUSTER).orElseThrow();
        MockClusters clusters = MockClusters.of(catalog);
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"));
                MockApiServer hub = clusters.startHub(0, rbac("broker.yaml", BROKER_TOKEN, BROKER));
                MockApiServer member = clusters.startMember(profile, rbac("agent.yaml", AGENT_TOKEN, AGENT));
                MemberSimulator simulator = MemberSimulators.start(
                        member.client(),
                        catalog,
                        SimulatorSettings.defaults().withCluster(CLUSTER).withBatchRunTime(Duration.ofHours(1)));
                KubernetesClient agentClient = client(member, AGENT_TOKEN);
                AgentRuntime agent = agent(options, kafka, agentClient, catalog);
                EmbeddedServer broker = broker(options, kafka, hub)) {
            hub.client()
                    .namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(UNBOUND)
                            .addToLabels(MetadataKeys.FEDERATE_LABEL, "true")
                            .endMetadata()
                            .build())
                    .create();
            BrokerRuntime runtime = broker.getApplicationContext().getBean(BrokerRuntime.class);
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> runtime.view().active()
                            && runtime.view().fleet().clusters().size() == 1,
                    () -> "broker leader with " + CLUSTER + " reporting");

            GenericKubernetesResource queue = hub.client().resource(queue("ml")).create();
            GenericKubernetesResource gang = submit(hub, "ml");
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> copy(member, "ml") != null
                            && CLUSTER.equals(labels(hub, gang).get(MetadataKeys.CLUSTER_LABEL))
                            && "Running".equals(labels(hub, gang).get(MetadataKeys.PHASE_LABEL)),
                    () -> "llama-finetune created on " + CLUSTER + " and Running");
            // the broker follows the Queue (list, watch) and writes its status (get, update of queues/status)
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> status(hub, queue).path("inUseGPUs").asLong() == 16, // 2 pods × 8 H100
                    () -> "the Queue's status counting llama-finetune's GPUs: " + status(hub, queue));
            assertThat(status(hub, queue).path("nominalGPUs").asLong()).isEqualTo(16);
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> {
                        Object mirrored = hub.client()
                                .resource(gang)
                                .get()
                                .getAdditionalProperties()
                                .get("status");
                        return mirrored != null
                                && mirrored.equals(copy(member, "ml")
                                        .getAdditionalProperties()
                                        .get("status"));
                    },
                    () -> "the member's status mirrored to the hub object");
            hub.client().resource(gang).delete();
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> copy(member, "ml") == null
                            && hub.client().resource(gang).get() == null,
                    () -> "the copy deleted on " + CLUSTER + " and the hub object gone (finalizer removed)");
            assertThat(member.rbacDenials())
                    .as("agent requests denied on the member")
                    .isEmpty();
            assertThat(hub.rbacDenials())
                    .as("broker requests denied on the hub")
                    .isEmpty();

            GenericKubernetesResource refused = submit(hub, UNBOUND);
            String forbidden = "pytorchjobs.kubeflow.org is forbidden: User \"" + AGENT
                    + "\" cannot create resource \"pytorchjobs\" in API group \"kubeflow.org\" in the namespace \""
                    + UNBOUND + "\"";
            // the only cluster refused it: it waits with the member's reason (a refusal sends a gang elsewhere)
            String reason = "every cluster that could take it refused it: " + CLUSTER
                    + " (the API server refused it: 403 Forbidden: " + forbidden + ")";
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "Queued".equals(labels(hub, refused).get(MetadataKeys.PHASE_LABEL))
                            && hub.client()
                                    .resource(refused)
                                    .get()
                                    .getMetadata()
                                    .getAnnotations()
                                    .getOrDefault(MetadataKeys.REASON_ANNOTATION, "")
                                    .startsWith(reason),
                    () -> "the gang in " + UNBOUND + " refused and waiting: "
                            + hub.client().resource(refused).get().getMetadata().getAnnotations());
            // its create was denied; so is the release its fencing delete tries there (the agent has no rights there)
            assertThat(member.rbacDenials()).extracting(Denial::message).contains(forbidden);
            assertThat(member.rbacDenials())
                    .extracting(Denial::message)
                    .allSatisfy(m -> assertThat(m).endsWith("in the namespace \"" + UNBOUND + "\""));
            assertThat(copy(member, UNBOUND)).isNull();
            assertThat(hub.rbacDenials()).isEmpty();
        }
    }

    static Rbac rbac(String manifest, String token, String user) throws Exception {
        String yaml = Files.readString(Path.of("..", "rbac", manifest));
        return Rbac.enforcing(RbacPolicy.fromYaml(List.of(yaml)), Map.of(token, user));
    }

    static KubernetesClient client(MockApiServer server, String token) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url())
                .withOauthToken(token)
                .withHttp2Disable(true)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    static AgentRuntime agent(FleetOptions options, LocalKafka kafka, KubernetesClient client, Definitions catalog) {
        AgentSettings settings = new AgentSettings(
                        CLUSTER,
                        options.profile().cluster(CLUSTER).orElseThrow().labels(),
                        options.topicPrefix(),
                        Map.of("bootstrap.servers", kafka.bootstrapServers()),
                        Duration.ofMillis(300),
                        options.heartbeat(),
                        Set.of(),
                        false, // create-namespaces off: agent-create-namespaces.yaml is not applied
                        LocalFleet.fencing(options))
                .withTopicSettings(TopicSettings.SINGLE_BROKER); // one local Kafka broker
        AgentRuntime agent = new AgentRuntime(settings, new MemberCluster(client), catalog, Clock.systemUTC());
        agent.start();
        return agent;
    }

    /** The broker service, its hub kubeconfig carrying the broker's service account token. */
    static EmbeddedServer broker(FleetOptions options, LocalKafka kafka, MockApiServer hub) throws Exception {
        Path kubeconfig = Files.writeString(
                options.data().resolve("hub-broker.kubeconfig"),
                String.join(
                        "\n",
                        "apiVersion: v1",
                        "kind: Config",
                        "clusters:",
                        "- name: hub",
                        "  cluster:",
                        "    server: " + hub.url(),
                        "users:",
                        "- name: cartograph-broker",
                        "  user:",
                        "    token: " + BROKER_TOKEN,
                        "contexts:",
                        "- name: hub",
                        "  context: {cluster: hub, user: cartograph-broker, namespace: ml}",
                        "current-context: hub",
                        ""));
        // REST callers are not under test here: a token file, so the broker asks the hub for no reviews
        Path tokens = Files.writeString(options.data().resolve("broker-tokens.csv"), "test-admin-token,admin\n");
        Map<String, Object> props = BrokerProperties.of(options, kafka.bootstrapServers(), kubeconfig, tokens);
        return ApplicationContext.run(EmbeddedServer.class, props);
    }

    static GenericKubernetesResource submit(MockApiServer hub, String namespace) throws Exception {
        try (InputStream in = Files.newInputStream(LocalFleetIT.EXAMPLES.resolve("pytorchjob.yaml"))) {
            GenericKubernetesResource r =
                    hub.client().getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
            r.getMetadata().setNamespace(namespace);
            return hub.client().resource(r).create();
        }
    }

    /** A Queue for {@code namespace} promised 16 H100 (what llama-finetune takes). */
    static GenericKubernetesResource queue(String namespace) {
        GenericKubernetesResource queue = new GenericKubernetesResource();
        queue.setApiVersion("cartograph.dev/v1alpha1");
        queue.setKind("Queue");
        queue.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName(namespace + "-team")
                .build());
        queue.setAdditionalProperty(
                "spec",
                Map.of("namespaces", List.of(namespace), "quota", Map.of("gpus", Map.of("NVIDIA-H100-80GB-HBM3", 16))));
        return queue;
    }

    static com.fasterxml.jackson.databind.JsonNode status(MockApiServer hub, GenericKubernetesResource queue) {
        GenericKubernetesResource now = hub.client().resource(queue).get();
        return dev.cartograph.interpreter.Documents.json()
                .valueToTree(
                        now == null ? Map.of() : now.getAdditionalProperties().getOrDefault("status", Map.of()));
    }

    static GenericKubernetesResource copy(MockApiServer member, String namespace) {
        return member.client()
                .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                .inNamespace(namespace)
                .withName("llama-finetune")
                .get();
    }

    static Map<String, String> labels(MockApiServer hub, GenericKubernetesResource r) {
        GenericKubernetesResource now = hub.client().resource(r).get();
        return now == null || now.getMetadata().getLabels() == null
                ? Map.of()
                : now.getMetadata().getLabels();
    }
}
