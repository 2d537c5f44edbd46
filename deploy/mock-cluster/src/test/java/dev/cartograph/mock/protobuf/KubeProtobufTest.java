package dev.cartograph.mock.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Decoding the protobuf request bodies kubectl 1.32 sends, recorded in {@code src/test/resources/protobuf}
 * (its {@code -v=8} dumps). Expected JSON is what those commands mean, written by hand from their command lines.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KubeProtobufTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void readsKubectlCreateNamespace() throws Exception {
        assertThat(decoded("create-namespace")).isEqualTo(JSON.readTree("""
                {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-b"}}"""));
    }

    @Test
    void readsKubectlCreateConfigMapKeepingAnEmptyValue() throws Exception {
        assertThat(decoded("create-configmap")).isEqualTo(JSON.readTree("""
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings2"},
                 "data": {"empty": "", "mode": "fast"}}"""));
    }

    @Test
    void readsKubectlCreateSecretGenericWithBase64Data() throws Exception {
        // "admin" in base64 is YWRtaW4=
        assertThat(decoded("create-secret-generic")).isEqualTo(JSON.readTree("""
                {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "token2"}, "data": {"user": "YWRtaW4="}}"""));
    }

    @Test
    void readsKubectlCreateServiceAccount() throws Exception {
        assertThat(decoded("create-serviceaccount")).isEqualTo(JSON.readTree("""
                {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "runner2"}}"""));
    }

    @Test
    void refusesADeploymentNamingItsType() throws Exception {
        KubeProtobuf.Decoded decoded = KubeProtobuf.decode(RecordedBodies.of("create-deployment"));
        assertThat(decoded).isInstanceOf(KubeProtobuf.Unsupported.class);
        KubeProtobuf.Unsupported unsupported = (KubeProtobuf.Unsupported) decoded;
        assertThat(unsupported.type()).contains("apps/v1 Deployment");
        assertThat(unsupported.reason()).contains("only for v1 Namespace, ConfigMap, Secret and ServiceAccount");
    }

    @Test
    void readsLabelsAndRefusesAFieldItDoesNotKnow() {
        // ConfigMap{metadata{name "a", labels{"team": "nlp"}}}, then the same with ObjectMeta field 17 (managedFields)
        byte[] labelled = envelope(
                "ConfigMap",
                bytes(
                        0x0a, 0x10, 0x0a, 0x01, 'a', 0x5a, 0x0b, 0x0a, 0x04, 't', 'e', 'a', 'm', 0x12, 0x03, 'n', 'l',
                        'p'));
        assertThat(((KubeProtobuf.Json) KubeProtobuf.decode(labelled)).object().toString())
                .isEqualTo(
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"labels\":{\"team\":\"nlp\"}}}");

        byte[] managed = envelope("ConfigMap", bytes(0x0a, 0x06, 0x0a, 0x01, 'a', 0x8a, 0x01, 0x00));
        KubeProtobuf.Decoded refused = KubeProtobuf.decode(managed);
        assertThat(refused).isInstanceOf(KubeProtobuf.Unsupported.class);
        assertThat(((KubeProtobuf.Unsupported) refused).reason())
                .isEqualTo("field 17 of ObjectMeta is not read by the mock");
    }

    @Test
    void refusesBodiesThatAreNotKubernetesProtobuf() {
        assertThat(KubeProtobuf.decode("{\"kind\":\"Namespace\"}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new KubeProtobuf.Unsupported(
                        Optional.empty(), "the body does not start with the Kubernetes protobuf prefix k8s\\0"));
        assertThat(KubeProtobuf.decode(bytes('k', '8', 's', 0, 0x0a, 0x7f)))
                .isInstanceOf(KubeProtobuf.Unsupported.class);
    }

    private static JsonNode decoded(String name) throws IOException {
        KubeProtobuf.Decoded decoded = KubeProtobuf.decode(RecordedBodies.of(name));
        assertThat(decoded).isInstanceOf(KubeProtobuf.Json.class);
        return ((KubeProtobuf.Json) decoded).object();
    }

    /** {@code k8s\0} + Unknown{typeMeta{v1, kind}, raw}. */
    private static byte[] envelope(String kind, byte[] raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bytes('k', '8', 's', 0, 0x0a, 4 + 2 + kind.length(), 0x0a, 0x02, 'v', '1', 0x12, kind.length()));
        out.writeBytes(kind.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(bytes(0x12, raw.length));
        out.writeBytes(raw);
        return out.toByteArray();
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }
}
