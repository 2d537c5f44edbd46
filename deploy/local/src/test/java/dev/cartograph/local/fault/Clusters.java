package dev.cartograph.local.fault;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.mock.crd.CatalogCrds;
import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.fleet.FleetProfile;
import dev.cartograph.mock.seed.FleetSeeder;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.simulator.MemberSimulator;
import dev.cartograph.simulator.SimulatorSettings;
import dev.cartograph.simulator.kube.MemberSimulators;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
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
    static final String NAMESPACE = "ml";
    static final String SYSTEM_NAMESPACE = "cartograph-system";

    private final FleetProfile profile;
    private final Path dir;
    private MockApiServer hub;
    private final Map<String, MockApiServer> members = new LinkedHashMap<>();
    private final List<MemberSimulator> simulators = new ArrayList<>();

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
        List<CustomResourceDefinition> crds = new ArrayList<>(CatalogCrds.of(catalog));
        crds.add(crd("/crds/kartas.run.ai.yaml"));
        List<CustomResourceDefinition> hubCrds = new ArrayList<>(crds);
        hubCrds.add(crd("/crds/clusters.cartograph.dev.yaml"));
        hub = MockApiServer.start(MockApiServer.Options.defaults().withCrds(hubCrds));
        hub.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NAMESPACE)
                        .addToLabels("cartograph.dev/federate", "true")
                        .endMetadata()
                        .build())
                .create();
        hub.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(SYSTEM_NAMESPACE)
                        .endMetadata()
                        .build())
                .create();
        hub.writeKubeconfig(hubKubeconfig(), NAMESPACE);
        for (ClusterProfile c : profile.clusters()) {
            MockApiServer member =
                    MockApiServer.start(MockApiServer.Options.defaults().withCrds(crds));
            members.put(c.name(), member);
            FleetSeeder.seed(member.client(), c);
            member.writeKubeconfig(kubeconfig(c.name()), NAMESPACE);
            simulators.add(MemberSimulators.start(
                    member.client(),
                    catalog,
                    SimulatorSettings.defaults().withCluster(c.name()).withBatchRunTime(batchRunTime)));
        }
    }

    KubernetesClient hub() {
        return hub.client();
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

    List<String> names() {
        return List.copyOf(members.keySet());
    }

    Map<String, String> labels(String cluster) {
        return profile.cluster(cluster).map(ClusterProfile::labels).orElse(Map.of());
    }

    private static CustomResourceDefinition crd(String resource) {
        try (InputStream in = Clusters.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        simulators.forEach(MemberSimulator::close);
        members.values().forEach(MockApiServer::close);
        if (hub != null) {
            hub.close();
        }
    }
}
