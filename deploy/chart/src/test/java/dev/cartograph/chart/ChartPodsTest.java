package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pods of every documented value set: hardened for the restricted pod security level (non-root user 65532,
 * read-only root with a writable /tmp, no capabilities, RuntimeDefault seccomp), probed on Micronaut's health
 * endpoints, given time to close their Kafka clients, and mounting the configuration file they are told to read.
 */
@Timeout(300)
class ChartPodsTest {

    static List<String> examples() {
        return Chart.examples();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyPodIsHardenedProbedAndMountsWhatItsConfigurationNames(String example) {
        Rendered r = Chart.template(example);

        assertThat(r.ofKind("Deployment")).isNotEmpty();
        for (JsonNode d : r.ofKind("Deployment")) {
            JsonNode pod = d.path("spec").path("template").path("spec");
            String component = d.path("metadata").path("name").asText().replace("cartograph-", "");
            assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean())
                    .isTrue();
            assertThat(pod.path("securityContext").path("runAsUser").asInt()).isEqualTo(65532);
            assertThat(pod.path("securityContext")
                            .path("seccompProfile")
                            .path("type")
                            .asText())
                    .isEqualTo("RuntimeDefault");
            // stopping closes Kafka clients, up to about 45 s with Kafka unreachable: more than the default 30 s
            assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isEqualTo(60);
            JsonNode c = pod.path("containers").get(0);
            JsonNode sc = c.path("securityContext");
            assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
            assertThat(sc.path("allowPrivilegeEscalation").asBoolean()).isFalse();
            assertThat(sc.path("capabilities").path("drop").toString()).isEqualTo("[\"ALL\"]");
            // the read-only root needs a writable /tmp
            assertThat(Pods.volumeAt(pod, c, "/tmp").has("emptyDir")).isTrue();
            // Micronaut's health endpoints on the named HTTP port
            assertThat(c.path("livenessProbe").path("httpGet").path("path").asText())
                    .isEqualTo("/health/liveness");
            assertThat(c.path("readinessProbe").path("httpGet").path("path").asText())
                    .isEqualTo("/health/readiness");
            assertThat(c.path("livenessProbe").path("httpGet").path("port").asText())
                    .isEqualTo("http");
            assertThat(c.path("ports").get(0).path("name").asText()).isEqualTo("http");
            // the service listens where the pod's port and probes point
            assertThat(r.configFile(component)
                            .path("micronaut")
                            .path("server")
                            .path("port")
                            .asInt())
                    .isEqualTo(c.path("ports").get(0).path("containerPort").asInt());
            // the configuration file Micronaut is told to read is the ConfigMap's, mounted
            String file = Pods.env(c, "MICRONAUT_CONFIG_FILES").path("value").asText();
            assertThat(file).isEqualTo("/etc/cartograph/config/" + component + ".yml");
            assertThat(Pods.volumeAt(pod, c, "/etc/cartograph/config")
                            .path("configMap")
                            .path("name")
                            .asText())
                    .isEqualTo("cartograph-" + component);
            // every mount has its volume
            for (JsonNode m : c.path("volumeMounts")) {
                assertThat(Pods.volume(pod, m.path("name").asText()))
                        .as(m.toString())
                        .isNotNull();
            }
        }
    }
}
