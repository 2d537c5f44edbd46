package dev.cartograph.local.fault;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.local.fault.net.TcpProxy;
import dev.cartograph.local.kube.MockClusters;
import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.fleet.FleetProfile;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.simulator.MemberSimulator;
import dev.cartograph.simulator.SimulatorSettings;
import dev.cartograph.simulator.kube.MemberSimulators;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes side of the fault suite, in the test JVM because Kubernetes does not crash here: a
 * hub and one member per cluster of the fleet profile (fabric8 CRUD mock API servers, set up as the
 * local fleet sets them up: catalog CRDs, namespace {@code ml} federated on the hub, pre-existing
 * pods), a member simulator per member (scheduler, kubelet, controllers), and a kubeconfig for each
 * server for the child JVMs. Start once, close once; the clients are thread-safe.
 */
final class Clusters implements AutoCloseable {
    static final String NAMESPACE = MockClusters.WORKLOAD_NAMESPACE;
    static final String SYSTEM_NAMESPACE = MockClusters.SYSTEM_NAMESPACE;

    private final FleetProfile profile;
    private final Path dir;
    private MockApiServer hub;
    private final Map<String, MockApiServer> members = new LinkedHashMap<>();
    private final List<MemberSimulator> simulators = new ArrayList<>();
    /** Between each member's agent and its API server: the link a partition cuts. */
    private final Map<String, Link> agentLinks = new LinkedHashMap<>();
    /** Between each broker replica's slot ({@link BrokerReplicas}) and the hub's API server. */
    private final List<Link> brokerHubLinks = new ArrayList<>();

    private Clusters(FleetProfile profile, Path dir) {
        this.profile = profile;
        this.dir = dir;
    }

    static Clusters start(FleetProfile profile, Path dir, Duration batchRunTime) {
        Clusters c = new Clusters(profile, dir);
        try {
            c.startAll(batchRunTime);
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void startAll(Duration batchRunTime) {
        Definitions catalog = Catalog.load().definitions();
        MockClusters mocks;
        try {
            mocks = MockClusters.of(catalog); // the hub and members exactly as the local fleet starts them
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        hub = mocks.startHub(0);
        hub.writeKubeconfig(hubKubeconfig(), NAMESPACE);
        for (int slot = 0; slot < BrokerReplicas.REPLICAS; slot++) {
            TcpProxy link = TcpProxy.start(new java.net.InetSocketAddress("127.0.0.1", hub.port()));
            brokerHubLinks.add(new Link("the hub for broker slot " + slot, List.of(link)));
            writeProxied(hubKubeconfig(), brokerHubKubeconfig(slot), hub.port(), link.port());
        }
        for (ClusterProfile c : profile.clusters()) {
            MockApiServer member = mocks.startMember(c);
            members.put(c.name(), member);
            member.writeKubeconfig(kubeconfig(c.name()), NAMESPACE);
            TcpProxy link = TcpProxy.start(new java.net.InetSocketAddress("127.0.0.1", member.port()));
            agentLinks.put(c.name(), new Link("the API server of " + c.name() + " for its agent", List.of(link)));
            writeProxied(kubeconfig(c.name()), agentKubeconfig(c.name()), member.port(), link.port());
            simulators.add(MemberSimulators.start(
                    member.client(),
                    catalog,
                    SimulatorSettings.defaults().withCluster(c.name()).withBatchRunTime(batchRunTime)));
        }
    }

    KubernetesClient hub() {
        return hub.client();
    }

    /** The hub's API server, for its faults ({@link MockApiServer#faults()}). */
    MockApiServer hubServer() {
        return hub;
    }

    /** A member's API server, for its faults. */
    MockApiServer memberServer(String cluster) {
        return members.get(cluster);
    }

    Path hubKubeconfig() {
        return dir.resolve("hub.kubeconfig");
    }

    KubernetesClient member(String cluster) {
        return members.get(cluster).client();
    }

    Path kubeconfig(String cluster) {
        return dir.resolve(cluster + ".kubeconfig");
    }

    /** The kubeconfig an agent uses: its member's API server through {@link #agentLink}. */
    Path agentKubeconfig(String cluster) {
        return dir.resolve(cluster + "-agent.kubeconfig");
    }

    /** The link between a member's agent and its API server, to partition. */
    Link agentLink(String cluster) {
        return agentLinks.get(cluster);
    }

    /** The kubeconfig the broker replica in {@code slot} uses: the hub through {@link #brokerHubLink}. */
    Path brokerHubKubeconfig(int slot) {
        return dir.resolve("hub-broker-" + slot + ".kubeconfig");
    }

    /** The link between the broker replica in {@code slot} and the hub's API server, to partition. */
    Link brokerHubLink(int slot) {
        return brokerHubLinks.get(slot);
    }

    private static void writeProxied(Path kubeconfig, Path proxied, int port, int proxyPort) {
        try {
            java.nio.file.Files.writeString(
                    proxied,
                    java.nio.file.Files.readString(kubeconfig).replace("127.0.0.1:" + port, "127.0.0.1:" + proxyPort));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> names() {
        return List.copyOf(members.keySet());
    }

    Map<String, String> labels(String cluster) {
        return profile.cluster(cluster).map(ClusterProfile::labels).orElse(Map.of());
    }

    @Override
    public void close() {
        agentLinks.values().forEach(Link::close);
        brokerHubLinks.forEach(Link::close);
        simulators.forEach(MemberSimulator::close);
        members.values().forEach(MockApiServer::close);
        if (hub != null) {
            hub.close();
        }
    }
}
