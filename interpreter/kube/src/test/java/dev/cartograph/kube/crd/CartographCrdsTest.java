package dev.cartograph.kube.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CartographCrdsTest {
    @Test
    void ownCrdsAreTheClusterAndKartaCrdsFromTheResources() {
        assertThat(CartographCrds.all())
                .extracting(c -> c.getMetadata().getName() + " " + c.getSpec().getScope() + " "
                        + c.getSpec().getNames().getKind())
                .containsExactly("clusters.cartograph.dev Cluster Cluster", "kartas.run.ai Cluster Karta");
        assertThat(CartographCrds.all())
                .allSatisfy(c -> assertThat(c.getMetadata().getLabels())
                        .containsEntry("app.kubernetes.io/managed-by", "cartograph"));
    }

    @Test
    void yamlStreamHasOneDocumentPerCrdWithoutServerFields() {
        var crds = new java.util.ArrayList<>(CatalogCrds.of(Catalog.load().definitions()));
        crds.addAll(CartographCrds.all());
        String yaml = CrdYaml.of(crds);
        // 22 catalog CRDs (counted in CatalogCrdsTest) and the 2 own ones
        assertThat(yaml.lines().filter(l -> l.equals("---"))).hasSize(24);
        assertThat(yaml.lines()
                        .filter(l -> l.equals("kind: \"CustomResourceDefinition\"")
                                || l.equals("kind: CustomResourceDefinition")))
                .hasSize(24);
        assertThat(yaml).doesNotContain("resourceVersion").doesNotContain("managedFields");
        assertThat(yaml.lines())
                .noneMatch(l -> l.startsWith("status:")); // subresources.status stays, the object status goes
        List<String> names = yaml.lines().filter(l -> l.startsWith("  name: ")).toList();
        assertThat(names).hasSize(24);
    }
}
