package dev.cartograph.local;

import dev.cartograph.agent.AgentRuntime;
import dev.cartograph.agent.AgentSettings;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.agent.metrics.AgentMetrics;
import dev.cartograph.broker.BrokerRuntime;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.local.kube.MockClusters;
import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.simulator.MemberSimulator;
import dev.cartograph.simulator.SimulatorSettings;
import dev.cartograph.simulator.kube.MemberSimulators;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
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
 * (REST on {@code brokerPort}, callers authenticated with a random token, {@link #token()}), and a member simulator per member standing in for kubelet and
 * controllers. The clusters live in memory, so every start begins from the profile: the Kafka data
 * directory is wiped too (documented). A test and demo harness. Start once, close once.
 */
public final class LocalFleet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalFleet.class);

    private final FleetOptions options;
    private final Definitions catalog = Catalog.load().definitions();
    private LocalKafka kafka;
    private MockApiServer hub;
    private final Map<String, MockApiServer> members = new LinkedHashMap<>();
    private final Map<String, AgentRuntime> agents = new HashMap<>();
    /** Each agent's metrics, in a registry of its own (an agent's own /prometheus would serve the same text). */
    private final Map<String, AgentMetricsRegistry> agentMetrics = new HashMap<>();

    private final Map<String, MemberSimulator> simulators = new HashMap<>();
    private EmbeddedServer broker;
    private AdminToken token;

    private LocalFleet(FleetOptions options) {
        this.options = options;
    }

    public static LocalFleet start(FleetOptions options) {
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
        MockClusters clusters = MockClusters.of(catalog);
        hub = clusters.startHub(options.hubPort());
        hub.writeKubeconfig(hubKubeconfig(), MockClusters.WORKLOAD_NAMESPACE);
        for (ClusterProfile c : options.profile().clusters()) {
            MockApiServer member = clusters.startMember(c);
            member.writeKubeconfig(options.data().resolve(c.name() + ".kubeconfig"), MockClusters.WORKLOAD_NAMESPACE);
            members.put(c.name(), member);
            startSimulator(c.name());
            startAgent(c.name());
        }
        token = AdminToken.create(options.data(), new SecureRandom());
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
                fencing(options),
                AgentSettings.Admission.DEFAULT,
                TopicSettings.SINGLE_BROKER); // one local Kafka broker
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AgentMetrics metrics = new AgentMetrics(registry);
        AgentRuntime agent = new AgentRuntime(
                settings, new MemberCluster(members.get(cluster).client()), catalog, Clock.systemUTC(), metrics);
        metrics.informers(agent::informersSynced);
        agent.start();
        agents.put(cluster, agent);
        agentMetrics.put(cluster, new AgentMetricsRegistry(metrics, registry));
    }

    /**
     * Agents fence a heartbeat timeout before the broker fails their cluster over (docs/operations.md);
     * not at all when the timeouts leave no room for that.
     */
    static SelfFence.Settings fencing(FleetOptions options) {
        Duration after = options.failoverTimeout().minus(options.heartbeatTimeout());
        return after.compareTo(options.heartbeat().multipliedBy(2)) >= 0
                ? new SelfFence.Settings(Optional.of(after), false)
                : SelfFence.Settings.OFF;
    }

    /** The member simulator (kubelet and controllers) of one cluster; stopped, its workloads stay as they are. */
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

    /**
     * The Prometheus text of a running agent's metrics, as its {@code /prometheus} would serve it (in the local
     * fleet, agents run without an HTTP server); empty when the agent is not running.
     */
    public Optional<String> agentMetrics(String cluster) {
        AgentMetricsRegistry m = agentMetrics.get(cluster);
        if (m == null) {
            return Optional.empty();
        }
        m.metrics().refresh();
        return Optional.of(m.registry().scrape());
    }

    private record AgentMetricsRegistry(AgentMetrics metrics, PrometheusMeterRegistry registry) {}

    public void stopAgent(String cluster) {
        AgentRuntime a = agents.remove(cluster);
        if (a != null) {
            a.close();
        }
        AgentMetricsRegistry m = agentMetrics.remove(cluster);
        if (m != null) {
            m.registry().close();
        }
    }

    /** The broker service (Micronaut, REST included), configured like a deployment would configure it. */
    public void startBroker() {
        Map<String, Object> props =
                BrokerProperties.of(options, kafka.bootstrapServers(), hubKubeconfig(), token.tokenFile());
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

    /** The dashboard's address with the token, which signs in once (the page then drops it from the address bar). */
    public String dashboardUrl() {
        return brokerUrl() + "/?token="
                + java.net.URLEncoder.encode(token.token(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * The broker REST API's token (static token file mode; allowed everything), new on every start, and
     * where it is ({@code <data>/broker.token}, mode 0600).
     */
    public AdminToken token() {
        return token;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public Path hubKubeconfig() {
        return options.data().resolve("hub.kubeconfig");
    }

    /** The hub: a mock API server ({@code hub().client()} talks to it). */
    public MockApiServer hub() {
        return hub;
    }

    public String hubUrl() {
        return hub.url();
    }

    /** A member cluster: a mock API server ({@code member(name).client()} talks to it). */
    public MockApiServer member(String cluster) {
        return members.get(cluster);
    }

    public List<String> clusters() {
        return List.copyOf(members.keySet());
    }

    public FleetOptions options() {
        return options;
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
