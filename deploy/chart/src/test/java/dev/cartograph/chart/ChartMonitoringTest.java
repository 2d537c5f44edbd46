package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The chart's optional Grafana dashboard ConfigMap and PrometheusRule carry the files under files/ unchanged. */
class ChartMonitoringTest {

    @Test
    void offByDefaultNeitherIsRendered() {
        Rendered hub = Chart.template("values-hub.yaml");

        assertThat(hub.ofKind("PrometheusRule")).isEmpty();
        assertThat(hub.find("ConfigMap", "cartograph-grafana-dashboard")).isEmpty();
    }

    @Test
    void theDashboardConfigMapHoldsTheDashboardFileForTheGrafanaSidecar() throws IOException {
        Rendered hub = Chart.template(
                List.of("values-hub.yaml"),
                Map.of(
                        "monitoring.grafanaDashboard.enabled",
                        "true",
                        "monitoring.grafanaDashboard.namespace",
                        "monitoring"));

        JsonNode cm = hub.get("ConfigMap", "cartograph-grafana-dashboard");
        assertThat(cm.path("metadata").path("namespace").asText()).isEqualTo("monitoring");
        assertThat(cm.path("metadata").path("labels").path("grafana_dashboard").asText())
                .isEqualTo("1");
        ObjectMapper json = new ObjectMapper();
        JsonNode shipped = json.readTree(
                Chart.DIR.resolve("files/grafana/cartograph-fleet.json").toFile());
        assertThat(json.readTree(cm.path("data").path("cartograph-fleet.json").asText()))
                .isEqualTo(shipped);
        assertThat(shipped.path("uid").asText()).isEqualTo("cartograph-fleet");
    }

    @Test
    void thePrometheusRuleHoldsTheAlertsFilesGroups() throws IOException {
        Rendered hub = Chart.template(
                List.of("values-hub.yaml"),
                Map.of("monitoring.prometheusRule.enabled", "true", "monitoring.prometheusRule.labels.release", "kps"));

        JsonNode rule = hub.ofKind("PrometheusRule").get(0);
        assertThat(rule.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.path("metadata").path("labels").path("release").asText())
                .isEqualTo("kps");
        JsonNode file = Chart.YAML.readTree(Files.readString(Chart.DIR.resolve("files/prometheus/alerts.yaml")));
        assertThat(rule.path("spec").path("groups")).isEqualTo(file.path("groups"));
        assertThat(rule.path("spec").path("groups").findValuesAsText("alert"))
                .contains("CartographClusterNotReady", "CartographGangWaitingTooLong", "CartographIngestLag");
    }
}
