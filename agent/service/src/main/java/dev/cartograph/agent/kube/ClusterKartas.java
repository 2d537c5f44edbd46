package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Problem;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workload Map definitions stored in the member cluster ({@code kartas.run.ai}); they override the
 * catalog per kind, as in the CLI. Read at start; absent CRD, forbidden or unreachable means one
 * warning and the catalog alone. Invalid ones are logged and skipped.
 */
public final class ClusterKartas {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterKartas.class);
    private static final ResourceDefinitionContext KARTA = new ResourceDefinitionContext.Builder().withGroup("run.ai")
            .withVersion("v1alpha1").withKind("Karta").withPlural("kartas").withNamespaced(false).build();

    private ClusterKartas() {
    }

    public static Definitions overlay(Definitions catalog, KubernetesClient client) {
        List<JsonNode> docs = new ArrayList<>();
        try {
            var list = client.getApiResources("run.ai/v1alpha1");
            if (list == null || list.getResources() == null || list.getResources().stream().noneMatch(r -> "Karta".equals(r.getKind()))) {
                LOG.info("no kartas.run.ai CRD in this cluster; using the built-in catalog");
                return catalog;
            }
            client.genericKubernetesResources(KARTA).list().getItems()
                    .forEach(k -> docs.add(ClusterCache.tree(k)));
        } catch (KubernetesClientException e) {
            LOG.warn("cannot read kartas.run.ai (HTTP {}): using the built-in catalog", e.getCode());
            return catalog;
        }
        Definitions.Loaded cluster = Definitions.parse(docs, "cluster");
        for (Problem p : cluster.problems()) {
            if (p.isError()) {
                LOG.warn("cluster definition skipped: {}", p);
            }
        }
        LOG.info("{} definitions from kartas.run.ai override the catalog", cluster.definitions().size());
        return catalog.overriddenBy(cluster.definitions());
    }
}
