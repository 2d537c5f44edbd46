package dev.cartograph.local;

import dev.cartograph.agent.AgentRuntime;
import dev.cartograph.agent.AgentSettings;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.broker.BrokerRuntime;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.mock.crd.CatalogCrds;
import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.fleet.FleetProfile;
import dev.cartograph.mock.seed.FleetSeeder;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.simulator.MemberSimulator;
import dev.cartograph.simulator.SimulatorSettings;
import dev.cartograph.simulator.kube.MemberSimulators;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole federation on one machine, every part the real one but the clusters: a real Kafka broker
 * (KRaft), a hub and one mock API server per member of the fleet profile (fabric8 CRUD mode, with
 * discovery for kubectl and the catalog CRDs), one real agent per member, the real broker service
 * (REST on {@code brokerPort}), and a member simulator per member standing in for kubelet and
 * controllers. The clusters live in memory, so every start begins from the profile: the Kafka data
 * directory is wiped too (documented). A test and demo harness. Start once, close once.
 */
public final class LocalFleet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalFleet.class);

    /**
     * @param brokerPort   the broker's REST port (0: any free port)
     * @param kafkaPort    Kafka's listener port (0: any free port)
     * @param hubPort      the hub API server's port (0: any free port)
     * @param batchRunTime how long simulated batch workloads run before they complete
     */
    public record Options(
            Path data,
            FleetProfile profile,
            int brokerPort,
            int kafkaPort,
            int hubPort,
            Duration batchRunTime,
            Duration heartbeat,
            Duration heartbeatTimeout,
            Duration failoverTimeout,
            String topicPrefix) {
        public static Options defaults(Path data) {
            return new Options(
                    data,
                    FleetProfile.defaultProfile(),
                    8080,
                    0,
                    0,
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(8),
                    Duration.ofSeconds(30),
                    "cartograph");
        }

        public Options withPorts(int broker, int kafka, int hub) {
            return new Options(
                    data,
                    profile,
                    broker,
                    kafka,
                    hub,
                    batchRunTime,
                    heartbeat,
                    heartbeatTimeout,
                    failoverTimeout,
                    topicPrefix);
        }

        public Options withProfile(FleetProfile p) {
            return new Options(
                    data,
                    p,
                    brokerPort,
                    kafkaPort,
                    hubPort,
                    batchRunTime,
                    heartbeat,
                    heartbeatTimeout,
                    failoverTimeout,
                    topicPrefix);
        }

        public Options withBatchRunTime(Duration d) {
            return new Options(
                    data,
                    profile,
                    brokerPort,
                    kafkaPort,
                    hubPort,
                    d,
                    heartbeat,
                    heartbeatTimeout,
                    failoverTimeout,
                    topicPrefix);
        }

        public Options withTimeouts(Duration heartbeatEvery, Duration readyTimeout, Duration failover) {
            return new Options(
                    data,
                    profile,
                    brokerPort,
                    kafkaPort,
                    hubPort,
                    batchRunTime,
                    heartbeatEvery,
                    readyTimeout,
                    failover,
                    topicPrefix);
        }
    }

    private final Options options;
    private final Definitions catalog = Catalog.load().definitions();
    private LocalKafka kafka;
    private MockApiServer hub;
    private final Map<String, MockApiServer> members = new LinkedHashMap<>();
    private final Map<String, AgentRuntime> agents = new HashMap<>();
    private final Map<String, MemberSimulator> simulators = new HashMap<>();
    private EmbeddedServer broker;

    private LocalFleet(Options options) {
        this.options = options;
    }

    public static LocalFleet start(Options options) {
        LocalFleet fleet = new LocalFleet(options);
        try {
            fleet.startAll();
            return fleet;
        } catch (RuntimeException | IOException e) {
            fleet.close();
            throw e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e);
        }
    }

    private void startAll() throws IOException {
        Files.createDirectories(options.data());
        Path kafkaData = options.data().resolve("kafka");
        wipe(kafkaData); // the clusters are in memory: old placements would point at objects that no longer exist
        kafka = options.kafkaPort() == 0
                ? LocalKafka.start(kafkaData)
                : LocalKafka.start(kafkaData, options.kafkaPort());
        List<CustomResourceDefinition> crds = new java.util.ArrayList<>(CatalogCrds.of(catalog));
        crds.add(crd("/crds/kartas.run.ai.yaml"));
        List<CustomResourceDefinition> hubCrds = new java.util.ArrayList<>(crds);
        hubCrds.add(crd("/crds/clusters.cartograph.dev.yaml"));
        hub = MockApiServer.start(
                MockApiServer.Options.defaults().withPort(options.hubPort()).withCrds(hubCrds));
        hub.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("ml")
                        .addToLabels(MetadataKeys.FEDERATE_LABEL, "true")
                        .endMetadata()
                        .build())
                .create();
        hub.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("cartograph-system")
                        .endMetadata()
                        .build())
                .create();
        hub.writeKubeconfig(hubKubeconfig(), "ml");
        for (ClusterProfile c : options.profile().clusters()) {
            MockApiServer member =
                    MockApiServer.start(MockApiServer.Options.defaults().withCrds(crds));
            FleetSeeder.seed(member.client(), c);
            member.writeKubeconfig(options.data().resolve(c.name() + ".kubeconfig"), "ml");
            members.put(c.name(), member);
            startSimulator(c.name());
            startAgent(c.name());
        }
        startBroker();
    }

    public void startAgent(String cluster) {
        ClusterProfile profile = options.profile()
                .cluster(cluster)
                .orElseThrow(() -> new IllegalArgumentException("no cluster " + cluster));
        AgentSettings settings = new AgentSettings(
                cluster,
                profile.labels(),
                options.topicPrefix(),
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                Duration.ofMillis(300),
                options.heartbeat(),
                Set.of(),
                true,
                fencing(options));
        AgentRuntime agent = new AgentRuntime(settings, members.get(cluster).client(), catalog, Clock.systemUTC());
        agent.start();
        agents.put(cluster, agent);
    }

    /** The member simulator (kubelet and controllers) of one cluster; stopped, its workloads stay as they are. */
    /**
     * Agents fence a heartbeat timeout before the broker fails their cluster over (docs/operations.md);
     * not at all when the timeouts leave no room for that.
     */
    static SelfFence.Settings fencing(Options options) {
        Duration after = options.failoverTimeout().minus(options.heartbeatTimeout());
        return after.compareTo(options.heartbeat().multipliedBy(2)) >= 0
                ? new SelfFence.Settings(Optional.of(after), false)
                : SelfFence.Settings.OFF;
    }

    public void startSimulator(String cluster) {
        simulators.put(
                cluster,
                MemberSimulators.start(
                        members.get(cluster).client(),
                        catalog,
                        SimulatorSettings.defaults().withCluster(cluster).withBatchRunTime(options.batchRunTime())));
    }

    public void stopSimulator(String cluster) {
        MemberSimulator s = simulators.remove(cluster);
        if (s != null) {
            s.close();
        }
    }

    public void stopAgent(String cluster) {
        AgentRuntime a = agents.remove(cluster);
        if (a != null) {
            a.close();
        }
    }

    /** The broker service (Micronaut, REST included), configured like a deployment would configure it. */
    public void startBroker() {
        Map<String, Object> props = new HashMap<>();
        props.put("micronaut.server.port", options.brokerPort() == 0 ? -1 : options.brokerPort());
        props.put("cartograph.broker.id", "local-broker");
        props.put("cartograph.broker.bootstrap-servers", kafka.bootstrapServers());
        props.put("cartograph.broker.topic-prefix", options.topicPrefix());
        props.put("cartograph.broker.kubeconfig", hubKubeconfig().toString());
        props.put(
                "cartograph.broker.heartbeat-timeout",
                options.heartbeatTimeout().toMillis() + "ms");
        props.put(
                "cartograph.broker.failover-timeout", options.failoverTimeout().toMillis() + "ms");
        props.put("cartograph.broker.lease-namespace", "cartograph-system");
        props.put("cartograph.broker.tick", "250ms");
        props.put("cartograph.broker.topic-replication-factor", 1); // one local Kafka broker
        props.put("cartograph.broker.topic-min-insync-replicas", 1);
        broker = ApplicationContext.run(EmbeddedServer.class, props);
    }

    public void stopBroker() {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    public void restartKafka() {
        kafka.restart();
    }

    public BrokerRuntime broker() {
        return broker.getApplicationContext().getBean(BrokerRuntime.class);
    }

    public String brokerUrl() {
        return broker.getURL().toString();
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public Path hubKubeconfig() {
        return options.data().resolve("hub.kubeconfig");
    }

    public KubernetesClient hub() {
        return hub.client();
    }

    public String hubUrl() {
        return hub.url();
    }

    public KubernetesClient member(String cluster) {
        return members.get(cluster).client();
    }

    public List<String> clusters() {
        return List.copyOf(members.keySet());
    }

    public Options options() {
        return options;
    }

    private static CustomResourceDefinition crd(String resource) throws IOException {
        try (java.io.InputStream in = LocalFleet.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing resource " + resource);
            }
            return new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
                    .unmarshal(in, CustomResourceDefinition.class);
        }
    }

    private static void wipe(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    public void close() {
        stopBroker();
        agents.keySet().stream().toList().forEach(this::stopAgent);
        simulators.values().forEach(MemberSimulator::close);
        members.values().forEach(MockApiServer::close);
        if (hub != null) {
            hub.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        LOG.info("local fleet stopped");
    }
}
