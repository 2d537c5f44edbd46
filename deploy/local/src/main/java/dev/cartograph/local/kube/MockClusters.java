package dev.cartograph.local.kube;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.kube.crd.CartographCrds;
import dev.cartograph.kube.crd.CatalogCrds;
import dev.cartograph.mock.admission.Admission;
import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.rbac.Rbac;
import dev.cartograph.mock.seed.FleetSeeder;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.MetadataKeys;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Starts the local fleet's clusters as mock API servers, each holding what the federation expects to find
 * there: on every cluster the catalog's CRDs and the Karta CRD; on the hub also the Cluster and Queue CRDs, the
 * federated {@value #WORKLOAD_NAMESPACE} namespace and {@value #SYSTEM_NAMESPACE}; on a member the nodes of
 * its cluster profile, and the admission denials it lists. Immutable; the servers it starts belong to the caller.
 */
public final class MockClusters {
    /** The namespace workloads are submitted to (labelled for federation on the hub). */
    public static final String WORKLOAD_NAMESPACE = "ml";

    /** The hub namespace of the broker's Lease. */
    public static final String SYSTEM_NAMESPACE = "cartograph-system";

    /** Cartograph's CRDs only the hub has: the broker's Cluster objects and the Queues it reads. */
    private static final Set<String> HUB_ONLY = Set.of("clusters.cartograph.dev", "queues.cartograph.dev");

    private final List<CustomResourceDefinition> memberCrds;
    private final List<CustomResourceDefinition> hubCrds;

    private MockClusters(List<CustomResourceDefinition> memberCrds, List<CustomResourceDefinition> hubCrds) {
        this.memberCrds = List.copyOf(memberCrds);
        this.hubCrds = List.copyOf(hubCrds);
    }

    /** Reads the CRDs of {@code catalog}'s kinds and Cartograph's own. */
    public static MockClusters of(Definitions catalog) throws IOException {
        List<CustomResourceDefinition> crds = new ArrayList<>(CatalogCrds.of(catalog));
        List<CustomResourceDefinition> own = CartographCrds.all(); // as carto install crds installs them
        own.stream()
                .filter(c -> c.getMetadata().getName().equals("kartas.run.ai"))
                .forEach(crds::add);
        List<CustomResourceDefinition> hubCrds = new ArrayList<>(crds);
        own.stream().filter(c -> HUB_ONLY.contains(c.getMetadata().getName())).forEach(hubCrds::add);
        return new MockClusters(crds, hubCrds);
    }

    /** The hub on {@code port} (0: any free port). */
    public MockApiServer startHub(int port) {
        return startHub(port, Rbac.OFF);
    }

    /** The hub on {@code port} (0: any free port), enforcing {@code rbac} on the tokens it names. */
    public MockApiServer startHub(int port, Rbac rbac) {
        MockApiServer hub = MockApiServer.start(MockApiServer.Options.defaults()
                .withPort(port)
                .withCrds(hubCrds)
                .withRbac(rbac));
        hub.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(WORKLOAD_NAMESPACE)
                        .addToLabels(MetadataKeys.FEDERATE_LABEL, "true")
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
        return hub;
    }

    /** A member cluster on any free port, with the nodes of {@code profile}. */
    public MockApiServer startMember(ClusterProfile profile) {
        return startMember(profile, Rbac.OFF);
    }

    /**
     * A member cluster on any free port, with the nodes of {@code profile}, enforcing {@code rbac} and refusing the
     * creates and updates the profile's {@code admission} rules deny (as a validating webhook would).
     */
    public MockApiServer startMember(ClusterProfile profile, Rbac rbac) {
        MockApiServer member = MockApiServer.start(MockApiServer.Options.defaults()
                .withCrds(memberCrds)
                .withRbac(rbac)
                .withAdmission(Admission.of(profile.admission())));
        FleetSeeder.seed(member.client(), profile);
        return member;
    }
}
