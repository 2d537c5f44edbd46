package dev.cartograph.simulator.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cartograph.interpreter.dependency.Dependency;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KubeletTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    // a ConfigMap volume, a Secret in envFrom, an optional ConfigMap in env, a claim, a ServiceAccount and a pull
    // secret
    private static final String SPEC = """
            serviceAccountName: trainer
            imagePullSecrets: [{name: registry}]
            volumes:
            - name: config
              configMap: {name: train-config}
            - name: data
              persistentVolumeClaim: {claimName: dataset}
            containers:
            - name: pytorch
              image: pytorch
              envFrom:
              - secretRef: {name: hf-token}
              env:
              - name: EXTRA
                valueFrom:
                  configMapKeyRef: {name: extras, key: x, optional: true}
            """;

    private static JsonNode spec() throws IOException {
        return YAML.readTree(SPEC);
    }

    /** Present: the objects named "Kind/name" in {@code names}; records every lookup. */
    private static Predicate<Dependency> present(Set<String> names, List<String> asked) {
        return d -> {
            asked.add(d.kind().kind() + "/" + d.name());
            return names.contains(d.kind().kind() + "/" + d.name());
        };
    }

    @Test
    void startsWhenEveryNeededObjectIsThereAndNeverAsksForOptionalOnesPullSecretsOrTheServiceAccount()
            throws IOException {
        List<String> asked = new ArrayList<>();
        Startup s = Kubelet.startup(
                spec(),
                "ml",
                present(Set.of("ConfigMap/train-config", "PersistentVolumeClaim/dataset", "Secret/hf-token"), asked));

        assertThat(s).isEqualTo(new Startup.Start());
        assertThat(asked).containsExactly("ConfigMap/train-config", "PersistentVolumeClaim/dataset", "Secret/hf-token");
    }

    @Test
    void aMissingConfigMapVolumeKeepsTheContainersCreatingWithTheMountFailure() throws IOException {
        Startup s = Kubelet.startup(
                spec(), "ml", present(Set.of("PersistentVolumeClaim/dataset", "Secret/hf-token"), new ArrayList<>()));

        assertThat(s)
                .isEqualTo(new Startup.Wait(
                        "ContainerCreating",
                        "MountVolume.SetUp failed for volume \"config\" : configmap \"train-config\" not found"));
    }

    @Test
    void aMissingClaimKeepsTheContainersCreating() throws IOException {
        Startup s = Kubelet.startup(
                spec(), "ml", present(Set.of("ConfigMap/train-config", "Secret/hf-token"), new ArrayList<>()));

        assertThat(s).isInstanceOfSatisfying(Startup.Wait.class, w -> {
            assertThat(w.reason()).isEqualTo("ContainerCreating");
            assertThat(w.message())
                    .contains("unmounted volumes=[data]")
                    .endsWith("persistentvolumeclaims \"dataset\" not found");
        });
    }

    @Test
    void aMissingSecretInTheEnvironmentIsACreateContainerConfigError() throws IOException {
        Startup s = Kubelet.startup(
                spec(),
                "ml",
                present(Set.of("ConfigMap/train-config", "PersistentVolumeClaim/dataset"), new ArrayList<>()));

        assertThat(s).isEqualTo(new Startup.Wait("CreateContainerConfigError", "secret \"hf-token\" not found"));
    }

    @Test
    void anInitContainerEnvironmentIsCheckedToo() throws IOException {
        JsonNode spec = YAML.readTree("""
                initContainers:
                - name: fetch
                  env:
                  - name: URL
                    valueFrom: {configMapKeyRef: {name: sources, key: url}}
                containers:
                - name: main
                """);

        assertThat(Kubelet.startup(spec, "ml", d -> false))
                .isEqualTo(new Startup.Wait("CreateContainerConfigError", "configmap \"sources\" not found"));
    }

    @Test
    void aPodThatNeedsNothingNeverAsks() throws IOException {
        List<String> asked = new ArrayList<>();
        JsonNode spec = YAML.readTree("containers: [{name: main, image: x}]");

        assertThat(Kubelet.startup(spec, "ml", present(Set.of(), asked))).isEqualTo(new Startup.Start());
        assertThat(asked).isEmpty();
    }
}
