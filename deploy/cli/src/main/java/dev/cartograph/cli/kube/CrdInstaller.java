package dev.cartograph.cli.kube;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.kube.crd.CartographCrds;
import dev.cartograph.kube.crd.CatalogCrds;
import dev.cartograph.kube.crd.CrdAction;
import dev.cartograph.kube.crd.CrdEstablishment;
import dev.cartograph.kube.crd.CrdPlan;
import dev.cartograph.kube.crd.CrdYaml;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
    public static CrdInstaller open(ConnectionOptions options) {
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
     * done. Each CRD is written on its own: one the server refuses (422 invalid, 409 conflict) is named in the
     * refusals returned and the rest go on; a 401 or 403 ends the writes there (the caller may not write CRDs at
     * all), saying how many were not tried.
     *
     * @return the CRDs now installed as wanted and the refusals
     */
    public Applied apply(List<Step> steps, Consumer<String> printed) {
        List<String> installed = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
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
                    refusals.add("cannot " + verb + " CRD " + action.name() + ": " + refusal(e));
                    if (e.getCode() == 401 || e.getCode() == 403) {
                        long left = steps.subList(i + 1, steps.size()).stream()
                                .filter(Step::writes)
                                .count();
                        if (left > 0) {
                            refusals.add(left + " more CRD" + (left == 1 ? "" : "s") + " not tried");
                        }
                        return new Applied(installed, refusals);
                    }
                    continue;
                }
            }
            if (action.outcome() != CrdAction.Outcome.SKIP) {
                installed.add(step.name());
            }
            printed.accept(step.line());
        }
        return new Applied(installed, refusals);
    }

    /**
     * What {@link #apply} did: the CRDs on the cluster as wanted (created, updated or unchanged), and one line per
     * refusal naming the CRD with the API server's message. Immutable.
     */
    public record Applied(List<String> installed, List<String> refusals) {
        public Applied {
            installed = List.copyOf(installed);
            refusals = List.copyOf(refusals);
        }
    }

    /**
     * Waits until the API server serves the kind of each of the CRDs {@code names}, as
     * {@code kubectl wait --for condition=established} would, reading each CRD's conditions every {@code poll}.
     *
     * @return one line per CRD not established within {@code timeout}, or whose names the server refused; empty
     *     when all are
     */
    public List<String> awaitEstablished(List<String> names, Duration timeout, Duration poll) {
        Map<String, String> waiting = new TreeMap<>();
        names.forEach(n -> waiting.put(n, ""));
        List<String> problems = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (var it = waiting.entrySet().iterator(); it.hasNext(); ) {
                var entry = it.next();
                CustomResourceDefinition crd;
                try {
                    crd = client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(entry.getKey())
                            .get();
                } catch (KubernetesClientException e) {
                    entry.setValue("cannot read it: " + refusal(e));
                    continue;
                }
                CrdEstablishment state = crd == null ? new CrdEstablishment.Pending("gone") : CrdEstablishment.of(crd);
                if (state instanceof CrdEstablishment.Established) {
                    it.remove();
                } else if (state instanceof CrdEstablishment.NamesRefused refusedNames) {
                    problems.add("CRD " + entry.getKey() + " is not established: names not accepted: "
                            + refusedNames.reason());
                    it.remove();
                } else {
                    entry.setValue(((CrdEstablishment.Pending) state).detail());
                }
            }
            if (waiting.isEmpty() || System.nanoTime() >= deadline) {
                break;
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        waiting.forEach((name, detail) -> problems.add("CRD " + name + " is not established after "
                + timeout.toSeconds() + " s" + (detail.isEmpty() ? "" : ": " + detail)));
        return problems;
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
