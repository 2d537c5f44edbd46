package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The agent's optional NetworkPolicy: off by default; on, nothing reaches the agent but its HTTP port from whom it names. */
@Timeout(120)
class ChartNetworkPolicyTest {
    @Test
    void noPolicyUnlessAskedFor() {
        assertThat(Chart.template("values-member.yaml").ofKind("NetworkPolicy")).isEmpty();
    }

    @Test
    void onWithNobodyNamedItDeniesEveryIngressToTheAgent() {
        Rendered r = Chart.template(List.of("values-member.yaml"), Map.of("agent.networkPolicy.enabled", true));

        JsonNode policy = single(r);
        JsonNode pod = r.ofKind("Deployment").get(0).path("spec").path("template");
        assertThat(policy.path("spec").path("podSelector").path("matchLabels"))
                .isEqualTo(r.ofKind("Deployment")
                        .get(0)
                        .path("spec")
                        .path("selector")
                        .path("matchLabels"));
        // the selector picks the agent's pods
        policy.path("spec")
                .path("podSelector")
                .path("matchLabels")
                .fields()
                .forEachRemaining(e -> assertThat(pod.path("metadata")
                                .path("labels")
                                .path(e.getKey())
                                .asText())
                        .isEqualTo(e.getValue().asText()));
        assertThat(policy.path("spec").path("policyTypes").toString()).isEqualTo("[\"Ingress\"]");
        assertThat(policy.path("spec").path("ingress").isArray()).isTrue();
        assertThat(policy.path("spec").path("ingress")).isEmpty();
    }

    @Test
    void onWithPrometheusNamedOnlyItReachesTheHttpPort() {
        Rendered r = Chart.template(
                List.of("values-member.yaml"),
                Map.of(
                        "agent.networkPolicy.enabled",
                        true,
                        "agent.networkPolicy.from[0].namespaceSelector.matchLabels.team",
                        "monitoring"));

        JsonNode ingress = single(r).path("spec").path("ingress");
        assertThat(ingress).hasSize(1);
        assertThat(ingress.get(0).path("from").toString())
                .isEqualTo("[{\"namespaceSelector\":{\"matchLabels\":{\"team\":\"monitoring\"}}}]");
        assertThat(ingress.get(0).path("ports").toString()).isEqualTo("[{\"port\":\"http\",\"protocol\":\"TCP\"}]");
        // "http" names the agent container's port
        JsonNode container = r.ofKind("Deployment")
                .get(0)
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
        assertThat(container.path("ports").get(0).path("name").asText()).isEqualTo("http");
    }

    private static JsonNode single(Rendered r) {
        assertThat(r.ofKind("NetworkPolicy")).hasSize(1);
        return r.ofKind("NetworkPolicy").get(0);
    }
}
