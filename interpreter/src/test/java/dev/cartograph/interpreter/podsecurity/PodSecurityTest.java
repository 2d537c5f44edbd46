package dev.cartograph.interpreter.podsecurity;

import static dev.cartograph.interpreter.podsecurity.Pods.fields;
import static dev.cartograph.interpreter.podsecurity.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Resolution;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The checker over whole workloads: pod templates found where their definition locates them, named by
 * their place in the object; every violation listed; the namespace policy; objects that cannot be read.
 */
@Timeout(30)
class PodSecurityTest {

    static final JsonNode UNSAFE_PYTORCHJOB = Pods.yaml("""
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata: {name: escape, namespace: ml}
            spec:
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  template: {spec: {containers: [{name: pytorch, image: x}]}}
                Worker:
                  replicas: 2
                  template:
                    spec:
                      containers: [{name: pytorch, image: x, securityContext: {privileged: true}}]
                      volumes: [{name: host, hostPath: {path: /}}]
            """);

    @Test
    void aPrivilegedPyTorchJobWithTheNodesRootMountedIsRefusedWithEveryFieldNamed() {
        List<Violation> violations = Pods.check(UNSAFE_PYTORCHJOB, Level.BASELINE);
        assertThat(violations)
                .containsExactly(
                        new Violation(
                                "PyTorchJob ml/escape",
                                "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].securityContext.privileged",
                                "privileged",
                                "container 'pytorch' runs privileged, with every device and capability of the node"),
                        new Violation(
                                "PyTorchJob ml/escape",
                                "spec.pytorchReplicaSpecs.Worker.template.spec.volumes[0].hostPath",
                                "hostPathVolumes",
                                "volume 'host' mounts the node's path / (hostPath volumes are not allowed)"));
        assertThat(violations.get(1).toString())
                .isEqualTo("spec.pytorchReplicaSpecs.Worker.template.spec.volumes[0].hostPath: volume 'host' mounts the"
                        + " node's path / (hostPath volumes are not allowed)");
        assertThat(Pods.check(UNSAFE_PYTORCHJOB, Level.PRIVILEGED)).isEmpty();
    }

    @Test
    void podSpecsAndMetadataLocatedApartAreNamedWhereTheyAre() {
        JsonNode set = Pods.yaml("""
                apiVersion: example.com/v1
                kind: CliqueSet
                metadata: {name: s, namespace: ml}
                spec:
                  cliques:
                    - name: ok
                      replicas: 1
                      podSpec: {containers: [{name: c}]}
                    - name: bad
                      replicas: 1
                      annotations: {container.apparmor.security.beta.kubernetes.io/c: unconfined}
                      podSpec: {hostIPC: true, containers: [{name: c}]}
                """);
        assertThat(fields(set, Level.BASELINE))
                .containsExactly(
                        "spec.cliques[1].podSpec.hostIPC hostNamespaces",
                        "spec.cliques[1].annotations[\"container.apparmor.security.beta.kubernetes.io/c\"] appArmorProfile");
    }

    /**
     * Every combination of these risky settings (2^9 pods) gives exactly the union of their violations at
     * baseline (none hides or adds another), nothing but nodeName at privileged, and something at restricted
     * whenever baseline refuses.
     */
    @Test
    void everyCombinationOfRiskySettingsListsExactlyItsViolations() {
        record Risk(String podField, String containerField, String expected) {}
        List<Risk> risks = List.of(
                new Risk("hostNetwork: true", "", "spec.hostNetwork"),
                new Risk("hostPID: true", "", "spec.hostPID"),
                new Risk("nodeName: n1", "", "spec.nodeName"),
                new Risk("volumes: [{name: v, hostPath: {path: /}}]", "", "spec.volumes[0].hostPath"),
                new Risk(
                        "securityContext: {sysctls: [{name: kernel.sem, value: '1'}]}",
                        "",
                        "spec.securityContext.sysctls[0].name"),
                new Risk("", "privileged: true", "spec.containers[0].securityContext.privileged"),
                new Risk(
                        "",
                        "capabilities: {add: [SYS_ADMIN]}",
                        "spec.containers[0].securityContext.capabilities.add[0]"),
                new Risk("", "procMount: Unmasked", "spec.containers[0].securityContext.procMount"),
                new Risk(
                        "",
                        "seccompProfile: {type: Unconfined}",
                        "spec.containers[0].securityContext.seccompProfile.type"));
        for (int mask = 0; mask < 1 << risks.size(); mask++) {
            List<String> pod = new ArrayList<>();
            List<String> container = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < risks.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    Risk r = risks.get(i);
                    Optional.of(r.podField()).filter(f -> !f.isEmpty()).ifPresent(pod::add);
                    Optional.of(r.containerField()).filter(f -> !f.isEmpty()).ifPresent(container::add);
                    expected.add(r.expected());
                }
            }
            pod.add("containers: [{name: c, securityContext: {" + String.join(", ", container) + "}}]");
            JsonNode object = pod("{" + String.join(", ", pod) + "}");
            List<String> baseline = Pods.check(object, Level.BASELINE).stream()
                    .map(Violation::field)
                    .toList();
            assertThat(baseline).as("mask %s", mask).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(Pods.check(object, Level.PRIVILEGED))
                    .as("mask %s", mask)
                    .allSatisfy(v -> assertThat(v.check()).isEqualTo("nodeName"));
            assertThat(Pods.check(object, Level.RESTRICTED).isEmpty())
                    .as("mask %s", mask)
                    .isFalse(); // an ordinary container already misses restricted's settings
        }
    }

    @Test
    void anObjectWhoseTemplatesCannotBeReadCannotComply() {
        JsonNode noDefinition =
                Pods.yaml("apiVersion: example.com/v1\nkind: Unknown\nmetadata: {name: u, namespace: ml}\n");
        List<Violation> violations = PodSecurity.check(Pods.INTERPRETER.resolve(noDefinition), Level.BASELINE);
        assertThat(violations).singleElement().satisfies(v -> {
            assertThat(v.object()).isEqualTo("Unknown ml/u");
            assertThat(v.check()).isEqualTo("podTemplates");
            assertThat(v.reason()).startsWith("its pod templates cannot be read");
        });
        Resolution ok = Pods.INTERPRETER.resolve(pod("{containers: [{name: c}]}"));
        assertThat(PodSecurity.check(ok, Level.BASELINE)).isEmpty();
        Resolution unsafe = Pods.INTERPRETER.resolve(pod("{hostPID: true, containers: [{name: c}]}"));
        assertThat(PodSecurity.check(unsafe, Level.BASELINE))
                .extracting(Violation::field)
                .containsExactly("spec.hostPID");
    }

    @Test
    void theNamespacePolicyGrantsPrivilegedOnlyToListedNamespaces() {
        PodSecurityPolicy policy = new PodSecurityPolicy(Level.RESTRICTED, Set.of("gpu-operator"));
        assertThat(policy.levelFor("ml")).isEqualTo(Level.RESTRICTED);
        assertThat(policy.levelFor("gpu-operator")).isEqualTo(Level.PRIVILEGED);
        assertThat(PodSecurityPolicy.DEFAULT.levelFor("ml")).isEqualTo(Level.BASELINE);
        assertThatThrownBy(() -> new PodSecurityPolicy(Level.PRIVILEGED, Set.of()))
                .hasMessageContaining("cannot apply to every namespace");
        assertThatThrownBy(() -> new PodSecurityPolicy(Level.BASELINE, Set.of("Not_A_Namespace")))
                .hasMessageContaining("privileged namespace 'Not_A_Namespace' is not a namespace name");
    }

    @Test
    void levelsAreSpelledAsKubernetesSpellsThem() {
        assertThat(Level.parse(" Restricted ")).contains(Level.RESTRICTED);
        assertThat(Level.parse("baseline")).contains(Level.BASELINE);
        assertThat(Level.parse("strict")).isEmpty();
        assertThat(Level.BASELINE).hasToString("baseline");
    }
}
