package dev.cartograph.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class KartasTest {
    KubernetesClient client;

    /** The example Karta users are shown (deploy/examples). */
    static final java.nio.file.Path VALID = java.nio.file.Path.of("../../deploy/examples/trainer-karta.yaml");

    static final String INVALID = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: broken}
            spec: {structureDefinition: {rootComponent: {name: x}}}
            """;

    static String read(java.nio.file.Path p) {
        try {
            return java.nio.file.Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void withoutTheCrdTheCatalogStandsAndWithItValidKartasOverrideIt() {
        Definitions catalog = Catalog.load().definitions();
        GroupVersionKind trainer = GroupVersionKind.of("example.com/v1", "Trainer");
        assertThat(Kartas.overlay(catalog, client)).isSameAs(catalog);

        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName(Kartas.CRD_NAME)
                        .endMetadata()
                        .withNewSpec()
                        .withGroup("run.ai")
                        .withScope("Cluster")
                        .withVersions(new CustomResourceDefinitionVersionBuilder()
                                .withName("v1alpha1")
                                .withServed(true)
                                .withStorage(true)
                                .build())
                        .withNewNames()
                        .withKind("Karta")
                        .withPlural("kartas")
                        .withSingular("karta")
                        .endNames()
                        .endSpec()
                        .build())
                .create();
        for (String yaml : new String[] {read(VALID), INVALID}) {
            client.genericKubernetesResources(Kartas.KARTAS)
                    .resource(client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class))
                    .create();
        }
        Definitions overlaid = Kartas.overlay(catalog, client);
        assertThat(overlaid.find(trainer)).isPresent();
        assertThat(overlaid.find(trainer).get().origin()).isEqualTo("cluster");
        assertThat(overlaid.size()).isEqualTo(catalog.size() + 1); // the broken one is skipped, the catalog kept
        assertThat(catalog.find(trainer)).isEmpty();
    }
}
