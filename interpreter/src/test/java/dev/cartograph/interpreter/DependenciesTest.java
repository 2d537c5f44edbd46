package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.dependency.Dependencies;
import dev.cartograph.interpreter.dependency.Dependency;
import dev.cartograph.interpreter.dependency.Dependency.Kind;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a pod spec needs in its namespace, each object once, optional only when every use is. */
@Timeout(30)
class DependenciesTest {

    @Test
    void findsEveryKindOfReferenceOnceInTheOrderFirstMet() throws IOException {
        JsonNode spec = ResolveTest.yaml("""
                serviceAccountName: trainer
                imagePullSecrets: [{name: registry}]
                volumes:
                  - {name: a, configMap: {name: settings}}
                  - {name: b, secret: {secretName: tls, optional: true}}
                  - {name: c, persistentVolumeClaim: {claimName: data}}
                  - name: d
                    projected:
                      sources:
                        - {configMap: {name: extra}}
                        - {secret: {name: token}}
                        - {serviceAccountToken: {path: t}}
                  - {name: e, emptyDir: {}}
                initContainers:
                  - name: init
                    envFrom: [{configMapRef: {name: settings}}]
                containers:
                  - name: main
                    envFrom: [{secretRef: {name: tls}}]
                    env:
                      - {name: X, value: "1"}
                      - {name: Y, valueFrom: {configMapKeyRef: {name: flags, key: y, optional: true}}}
                      - {name: Z, valueFrom: {secretKeyRef: {name: hf, key: token}}}
                      - {name: W, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
                """);
        List<Dependency> found = Dependencies.ofPodSpec(spec, "spec");
        // by hand: SA trainer; Secret registry; CM settings; Secret tls (optional in the volume, required by envFrom);
        // PVC data; CM extra; Secret token; CM flags (optional); Secret hf
        assertThat(found)
                .extracting(Dependency::toString)
                .containsExactly(
                        "ServiceAccount trainer",
                        "Secret registry",
                        "ConfigMap settings",
                        "Secret tls",
                        "PersistentVolumeClaim data",
                        "ConfigMap extra",
                        "Secret token",
                        "ConfigMap flags",
                        "Secret hf");
        assertThat(found.stream().filter(Dependency::optional).map(Dependency::name))
                .containsExactly("flags");
        assertThat(found.get(3).field()).isEqualTo("spec.containers[0].envFrom[0].secretRef.name");
        assertThat(found.get(2).field()).isEqualTo("spec.volumes[0].configMap.name");
    }

    @Test
    void theDefaultServiceAccountAndNamelessReferencesAreNotDependencies() throws IOException {
        JsonNode spec = ResolveTest.yaml("""
                serviceAccount: default
                volumes: [{name: a, configMap: {}}]
                containers: [{name: main, envFrom: [{secretRef: {name: ""}}]}]
                """);
        assertThat(Dependencies.ofPodSpec(spec, "spec")).isEmpty();
        assertThat(Dependencies.ofPodSpec(ResolveTest.yaml("serviceAccount: old"), "spec"))
                .containsExactly(new Dependency(Kind.SERVICE_ACCOUNT, "old", false, "spec.serviceAccountName"));
    }
}
