package dev.cartograph.kube.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cartograph's own CRDs, kept once as YAML resources of this module and read from the classpath by
 * the broker, the local fleet and {@code carto install crds}: {@value #CLUSTERS} (the broker's view of each
 * member), {@value #QUEUES} (fair-share queues, ADR 0006) and {@value #KARTAS} (Workload Map definitions;
 * a permissive stand-in for Workload Map's own CRD). What {@link #all()} returns is labelled {@value
 * CatalogCrds#MANAGED_BY_LABEL}={@value CatalogCrds#MANAGED_BY}, as the catalog CRDs are. Thread-safe.
 */
public final class CartographCrds {
    /** Classpath resource of the Cluster CRD ({@code clusters.cartograph.dev}). */
    public static final String CLUSTERS = "/crds/clusters.cartograph.dev.yaml";

    /** Classpath resource of the Queue CRD ({@code queues.cartograph.dev}). */
    public static final String QUEUES = "/crds/queues.cartograph.dev.yaml";

    /** Classpath resource of the Karta CRD ({@code kartas.run.ai}). */
    public static final String KARTAS = "/crds/kartas.run.ai.yaml";

    /** The group whose CRDs are Cartograph's whoever installed them. */
    public static final String GROUP = "cartograph.dev";

    private CartographCrds() {}

    /** The Cluster CRD, the Queue CRD, then the Karta CRD, each labelled as managed by Cartograph. */
    public static List<CustomResourceDefinition> all() {
        return List.of(managed(read(CLUSTERS)), managed(read(QUEUES)), managed(read(KARTAS)));
    }

    /** The CRD in classpath resource {@code resource}, as written there. */
    public static CustomResourceDefinition read(String resource) {
        try (InputStream in = CartographCrds.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + resource);
            }
            return new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read classpath resource " + resource, e);
        }
    }

    private static CustomResourceDefinition managed(CustomResourceDefinition crd) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (crd.getMetadata().getLabels() != null) {
            labels.putAll(crd.getMetadata().getLabels());
        }
        labels.put(CatalogCrds.MANAGED_BY_LABEL, CatalogCrds.MANAGED_BY);
        crd.getMetadata().setLabels(labels);
        return crd;
    }
}
