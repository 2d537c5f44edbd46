package dev.cartograph.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.problem.Problem;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workload Map definitions stored in a cluster as {@code kartas.run.ai} objects, read with fabric8 and
 * laid over the catalog by the one rule, {@link Definitions#overlaidBy} (the CLI uses the same). A
 * cluster without the CRD, or one that refuses or cannot be reached, leaves the catalog alone (one log
 * line says why); invalid definitions are logged with their problems and skipped.
 */
public final class Kartas {
    private static final Logger LOG = LoggerFactory.getLogger(Kartas.class);
    public static final String CRD_NAME = "kartas.run.ai";
    public static final ResourceDefinitionContext KARTAS = new ResourceDefinitionContext.Builder()
            .withGroup(Definitions.KARTA.group())
            .withVersion(Definitions.KARTA.version())
            .withKind(Definitions.KARTA.kind())
            .withPlural("kartas")
            .withNamespaced(false)
            .build();

    private Kartas() {}

    /** Whether the cluster has the Karta CRD. */
    public static boolean served(KubernetesClient client) {
        return client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(CRD_NAME)
                        .get()
                != null;
    }

    /** The catalog with the cluster's definitions over it, read now. */
    public static Definitions overlay(Definitions catalog, KubernetesClient client) {
        try {
            if (!served(client)) {
                LOG.info("no {} CRD in this cluster; using the built-in catalog", CRD_NAME);
                return catalog;
            }
            return overlay(
                    catalog, client.genericKubernetesResources(KARTAS).list().getItems());
        } catch (KubernetesClientException e) {
            LOG.warn("cannot read {} (HTTP {}): using the built-in catalog", CRD_NAME, e.getCode());
            return catalog;
        }
    }

    /** The catalog with these Karta objects over it. Pure but for logging the skipped ones. */
    public static Definitions overlay(Definitions catalog, Collection<GenericKubernetesResource> kartas) {
        List<JsonNode> docs = new ArrayList<>();
        kartas.forEach(k -> docs.add(Documents.json().valueToTree(k)));
        Definitions.Loaded overlaid = catalog.overlaidBy(docs);
        for (Problem p : overlaid.problems()) {
            if (p.isError()) {
                LOG.warn("{}", p);
            }
        }
        long fromCluster = overlaid.definitions().all().stream()
                .filter(d -> Definitions.CLUSTER_ORIGIN.equals(d.origin()))
                .count();
        LOG.info("{} definitions from {} override the catalog", fromCluster, CRD_NAME);
        return overlaid.definitions();
    }
}
