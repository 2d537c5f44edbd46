package dev.cartograph.cli.kube;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.kube.crd.CartographCrds;
import dev.cartograph.kube.crd.CatalogCrds;
import dev.cartograph.kube.crd.CrdAction;
import dev.cartograph.kube.crd.CrdPlan;
import dev.cartograph.kube.crd.CrdYaml;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code carto install crds} against a cluster: reads which CRDs it has and which kinds API discovery
 * says it serves, decides with {@link CrdPlan} (never overwriting an operator's CRD), and creates or
 * updates the rest. The CRDs are Cartograph's own ({@link CartographCrds}) then one per catalog kind
 * outside the built-in groups ({@link CatalogCrds}). Creates and updates work on the fabric8 CRUD mock
 * as on a real API server (no server-side apply). Owns one client; not thread-safe.
 */
public final class CrdInstaller implements AutoCloseable {
    private static final String RESOURCE = "customresourcedefinition.apiextensions.k8s.io/";

    private final KubernetesClient client;

    /** What installing one CRD does (or did); its line is what the command prints. Immutable. */
    public static final class Step {
        private final CrdAction action;

        private Step(CrdAction action) {
            this.action = action;
        }

        public String name() {
            return action.name();
        }

        /** Whether installing writes this CRD (create or update). */
        public boolean writes() {
            return action.outcome().writes();
        }

        /** {@code customresourcedefinition.apiextensions.k8s.io/NAME created}, as kubectl apply words it. */
        public String line() {
            return RESOURCE + action.name() + " " + action.describe();
        }
    }

    private CrdInstaller(KubernetesClient client) {
        this.client = client;
    }

    /** Connects as kubectl would with {@code options}. */
    public static CrdInstaller open(ClusterOptions options) {
        return new CrdInstaller(Kube.connect(options));
    }

    /** Cartograph's own CRDs, then the catalog kinds', in the order they are installed. */
    static List<CustomResourceDefinition> wanted(Definitions catalog) {
        List<CustomResourceDefinition> crds = new ArrayList<>(CartographCrds.all());
        crds.addAll(CatalogCrds.of(catalog));
        return crds;
    }

    /** Every CRD a bare hub would get, as one YAML stream; reads no cluster. */
    public static String allYaml(Definitions catalog) {
        return CrdYaml.of(wanted(catalog));
    }

    /** What installing would do on this cluster now; reads it, writes nothing. */
    public List<Step> plan(Definitions catalog) {
        List<CustomResourceDefinition> wanted = wanted(catalog);
        CrdPlan.Cluster cluster = new CrdPlan.Cluster(existing(), servedBy(wanted));
        return CrdPlan.of(wanted, cluster).stream().map(Step::new).toList();
    }

    /** The CRDs the steps would create or update, as one YAML stream (as generated, without the cluster's metadata). */
    public static String yaml(List<Step> steps) {
        return CrdYaml.of(
                steps.stream().filter(Step::writes).map(s -> s.action.crd()).toList());
    }

    /**
     * Creates and updates what {@code steps} say, in order, passing each step's line to {@code printed} once it is
     * done; stops at the first refusal with a {@link Kube.ClusterError} naming the CRD.
     */
    public void apply(List<Step> steps, Consumer<String> printed) {
        for (Step step : steps) {
            CrdAction action = step.action;
            if (action.outcome().writes()) {
                var crds = client.apiextensions().v1().customResourceDefinitions();
                try {
                    if (action.outcome() == CrdAction.Outcome.CREATE) {
                        crds.resource(action.crd()).create();
                    } else {
                        crds.resource(action.crd()).update();
                    }
                } catch (KubernetesClientException e) {
                    String verb = action.outcome() == CrdAction.Outcome.CREATE ? "create" : "update";
                    throw new Kube.ClusterError(
                            Math.max(0, e.getCode()), "cannot " + verb + " CRD " + action.name() + ": " + refusal(e));
                }
            }
            printed.accept(step.line());
        }
    }

    private Map<String, CustomResourceDefinition> existing() {
        try {
            return client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                    .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c, (a, b) -> a));
        } catch (KubernetesClientException e) {
            throw new Kube.ClusterError(
                    Math.max(0, e.getCode()), "cannot list CustomResourceDefinitions: " + refusal(e));
        }
    }

    /** For each kind the cluster serves in the groups of {@code wanted}: {@code group/version plural}. */
    private Map<String, String> servedBy(List<CustomResourceDefinition> wanted) {
        Set<String> groups =
                wanted.stream().map(c -> c.getSpec().getGroup()).collect(Collectors.toCollection(TreeSet::new));
        List<APIGroup> served;
        try {
            served = client.getApiGroups().getGroups();
        } catch (KubernetesClientException e) {
            throw new Kube.ClusterError(Math.max(0, e.getCode()), "cannot read API discovery: " + refusal(e));
        }
        Map<String, String> servedBy = new HashMap<>();
        for (APIGroup group : served == null ? List.<APIGroup>of() : served) {
            if (!groups.contains(group.getName())) {
                continue;
            }
            for (GroupVersionForDiscovery version : group.getVersions()) {
                APIResourceList resources;
                try {
                    resources = client.getApiResources(version.getGroupVersion());
                } catch (KubernetesClientException e) {
                    continue; // an aggregated API that is down serves nothing now
                }
                if (resources == null || resources.getResources() == null) {
                    continue;
                }
                resources.getResources().stream()
                        .filter(r -> !r.getName().contains("/"))
                        .forEach(r -> servedBy.putIfAbsent(
                                CrdPlan.Cluster.key(group.getName(), r.getKind()),
                                version.getGroupVersion() + " " + r.getName()));
            }
        }
        return servedBy;
    }

    /** {@link Kube#reason} with the API server's own message (who may not do what, which field is invalid). */
    private static String refusal(KubernetesClientException e) {
        String reason = Kube.reason(e);
        String message = e.getStatus() == null ? null : e.getStatus().getMessage();
        if (e.getCode() <= 0 || message == null || message.isBlank()) {
            return reason;
        }
        return reason.startsWith("HTTP ") ? "HTTP " + e.getCode() + ": " + message : reason + ": " + message;
    }

    @Override
    public void close() {
        client.close();
    }
}
