package dev.cartograph.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What of a hub dependency a member gets, and that a command carrying one never prints its data. */
@Timeout(30)
class DependencyManifestTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static JsonNode yaml(String text) throws Exception {
        return YAML.readTree(text);
    }

    @Test
    void aClaimAsksForNewStorageOnTheMemberAndForgetsTheHubsVolume() throws Exception {
        JsonNode claim = yaml("""
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata:
                  name: data
                  namespace: ml
                  uid: 1234
                  resourceVersion: "77"
                  annotations:
                    pv.kubernetes.io/bind-completed: "yes"
                    volume.kubernetes.io/storage-provisioner: ebs.csi.aws.com
                    team: nlp
                spec:
                  accessModes: [ReadWriteOnce]
                  resources: {requests: {storage: 100Gi}}
                  storageClassName: fast
                  volumeName: pvc-1234
                  dataSource: {kind: VolumeSnapshot, name: snap}
                status: {phase: Bound}
                """);
        JsonNode member = DependencyManifest.of(claim);
        assertThat(member).isEqualTo(yaml("""
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata:
                  name: data
                  namespace: ml
                  annotations: {team: nlp}
                spec:
                  accessModes: [ReadWriteOnce]
                  resources: {requests: {storage: 100Gi}}
                  storageClassName: fast
                """));
        assertThat(claim.path("spec").has("volumeName")).isTrue(); // the input is not changed
    }

    @Test
    void aServiceAccountLosesTheHubsTokenSecretsAndATokenSecretIsNeverCopied() throws Exception {
        JsonNode sa = yaml("""
                apiVersion: v1
                kind: ServiceAccount
                metadata: {name: trainer, namespace: ml}
                secrets: [{name: trainer-token-x}]
                imagePullSecrets: [{name: registry}]
                """);
        assertThat(DependencyManifest.of(sa).has("secrets")).isFalse();
        assertThat(DependencyManifest.of(sa)
                        .path("imagePullSecrets")
                        .get(0)
                        .path("name")
                        .asText())
                .isEqualTo("registry");
        JsonNode token = yaml("""
                apiVersion: v1
                kind: Secret
                metadata: {name: trainer-token-x, namespace: ml}
                type: kubernetes.io/service-account-token
                data: {token: c2VjcmV0}
                """);
        assertThat(DependencyManifest.refusal(token))
                .hasValueSatisfying(
                        r -> assertThat(r).contains("Secret ml/trainer-token-x").contains("never copied"));
        assertThatThrownBy(() -> DependencyManifest.of(token)).isInstanceOf(IllegalArgumentException.class);
        assertThat(DependencyManifest.refusal(yaml("{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}}")))
                .isPresent();
    }

    @Test
    void anApplyCarriesItsDependenciesOverTheWireButNeverPrintsTheirData() throws Exception {
        JsonNode secret = DependencyManifest.of(yaml("""
                apiVersion: v1
                kind: Secret
                metadata: {name: hf, namespace: ml}
                type: Opaque
                data: {token: aGYtdG9wLXNlY3JldA==}
                """));
        JsonNode config = DependencyManifest.of(yaml("""
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: settings, namespace: ml}
                data: {lr: "0.1"}
                """));
        Command.Apply apply = new Command.Apply(
                "p-1",
                3,
                Instant.parse("2026-12-03T12:00:00Z"),
                yaml("{apiVersion: kubeflow.org/v1, kind: PyTorchJob, metadata: {name: t, namespace: ml}}"),
                List.of(config, secret));
        assertThat(Wire.decodeCommand(Wire.encode(apply))).isEqualTo(new Decoded.Ok<>(apply));
        assertThat(apply.dependencies().get(1).path("data").path("token").asText())
                .isEqualTo("aGYtdG9wLXNlY3JldA==");
        assertThat(apply.toString())
                .isEqualTo("Apply[p-1 epoch 3: PyTorchJob ml/t after ConfigMap ml/settings, Secret ml/hf]")
                .doesNotContain("aGYt");
        // an apply without dependencies is written as before (readers that predate them read it unchanged)
        Command.Apply bare = new Command.Apply("p-1", 3, apply.issued(), apply.manifest());
        assertThat(new String(Wire.encode(bare), java.nio.charset.StandardCharsets.UTF_8))
                .doesNotContain("dependencies");
        assertThat(Wire.decodeCommand(Wire.encode(bare))).isEqualTo(new Decoded.Ok<>(bare));
    }
}
