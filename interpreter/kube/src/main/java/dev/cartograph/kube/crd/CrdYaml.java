package dev.cartograph.kube.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/** CRDs as one multi-document YAML stream, each document opened by {@code ---}, as {@code kubectl apply -f} reads it. Pure; thread-safe. */
public final class CrdYaml {
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    private CrdYaml() {}

    /** {@code crds} in order, without server-set metadata (resourceVersion, uid, timestamps, managed fields). */
    public static String of(List<CustomResourceDefinition> crds) {
        StringBuilder out = new StringBuilder();
        for (CustomResourceDefinition crd : crds) {
            CustomResourceDefinition clean = new CustomResourceDefinitionBuilder(crd)
                    .editMetadata()
                    .withResourceVersion(null)
                    .withUid(null)
                    .withCreationTimestamp(null)
                    .withGeneration(null)
                    .withManagedFields(List.of())
                    .endMetadata()
                    .withStatus(null)
                    .build();
            String doc = YAML.asYaml(clean);
            if (!doc.startsWith("---")) {
                out.append("---\n");
            }
            out.append(doc);
            if (!doc.endsWith("\n")) {
                out.append('\n');
            }
        }
        return out.toString();
    }
}
