package dev.cartograph.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.definition.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class KartasTest {
    KubernetesClient client;

    static final String VALID = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: example-com-trainer-v1}
            spec:
              structureDefinition:
                rootComponent:
                  name: trainer
                  kind: {group: example.com, version: v1, kind: Trainer}
                  specDefinition: {podTemplateSpecPath: .spec.template}
                  scaleDefinition: {replicasPath: .spec.replicas}
                  statusDefinition:
                    statusMappings:
                      running: [{byExpression: {expression: '.status.ready == true', expectedResult: "true"}}]
            """;
    static final String INVALID = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: broken}
            spec: {structureDefinition: {rootComponent: {name: x}}}
            """;

    @Test
    void withoutTheCrdTheCatalogStandsAndWithItValidKartasOverrideIt() {
        Definitions catalog = Catalog.load().definitions();
        GroupVersionKind trainer = GroupVersionKind.of("example.com/v1", "Trainer");
        assertThat(Kartas.overlay(catalog, client)).isSameAs(catalog);

        client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(Kartas.CRD_NAME).endMetadata()
                .withNewSpec().withGroup("run.ai").withScope("Cluster")
                .withVersions(new CustomResourceDefinitionVersionBuilder().withName("v1alpha1").withServed(true).withStorage(true).build())
                .withNewNames().withKind("Karta").withPlural("kartas").withSingular("karta").endNames().endSpec().build()).create();
        for (String yaml : new String[] {VALID, INVALID}) {
            client.genericKubernetesResources(Kartas.KARTAS).resource(client.getKubernetesSerialization()
                    .unmarshal(yaml, GenericKubernetesResource.class)).create();
        }
        Definitions overlaid = Kartas.overlay(catalog, client);
        assertThat(overlaid.find(trainer)).isPresent();
        assertThat(overlaid.find(trainer).get().origin()).isEqualTo("cluster");
        assertThat(overlaid.size()).isEqualTo(catalog.size() + 1); // the broken one is skipped, the catalog kept
        assertThat(catalog.find(trainer)).isEmpty();
    }
}
