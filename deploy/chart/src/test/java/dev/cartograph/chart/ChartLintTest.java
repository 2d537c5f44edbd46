package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** helm lint and helm template on good and bad value sets: good ones pass, bad ones fail naming the value. */
@Timeout(300)
class ChartLintTest {
    @TempDir
    Path scratch;

    @Test
    void defaultsLintAndInstallNothingUntilARoleIsChosen() {
        LintResult lint = Chart.lint(Chart.YAML.createObjectNode(), scratch);

        assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
        assertThat(errors(lint)).isEmpty();
        assertThat(Chart.template(List.of(), Map.of()).objects()).isEmpty();
    }

    static List<String> examples() {
        return Chart.examples();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyDocumentedValueSetLints(String example) {
        LintResult lint = Chart.lint(Chart.example(example), scratch);

        assertThat(lint.isFailed()).as("%s: %s", example, lint.getMessages()).isFalse();
        assertThat(errors(lint)).as(example).isEmpty();
    }

    @Test
    void anAgentWithoutItsClusterNameFailsLintSayingWhatToSet() throws IOException {
        JsonNode values = Chart.YAML.readTree("""
                agent:
                  enabled: true
                  allowedNamespaces: [ml]
                  kafka: {bootstrapServers: "kafka:9092"}
                """);

        LintResult lint = Chart.lint(values, scratch);

        assertThat(lint.isFailed()).as("%s", lint.getMessages()).isTrue();
        assertThat(String.join("\n", lint.getMessages())).contains("[ERROR]").contains("- agent: cluster is required");
    }

    /**
     * Each row: --set pairs (comma-separated k=v) that break one rule, and the words of the refusal. Most come from
     * values.schema.json (checked by lint, template and install alike); the rest from the templates' fail, which
     * template and install report (helm lint only logs a template's fail).
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "agent.enabled=true,agent.allowedNamespaces[0]=ml,agent.kafka.bootstrapServers=k:9092"
                        + "|- agent: cluster is required",
                "agent.enabled=true,agent.cluster=gpu.east,agent.allowedNamespaces[0]=ml,agent.kafka.bootstrapServers=k:9092"
                        + "|- agent.cluster: Does not match pattern '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'",
                "agent.enabled=true,agent.cluster=gpu-east,agent.kafka.bootstrapServers=k:9092"
                        + "|- agent.allowedNamespaces: Array must have at least 1 items",
                "agent.enabled=true,agent.cluster=gpu-east,agent.allowedNamespaces[0]=cartograph-system,agent.kafka.bootstrapServers=k:9092"
                        + "|agent.allowedNamespaces: \"cartograph-system\" is never written to",
                "agent.enabled=true,agent.cluster=gpu-east,agent.allowedNamespaces[0]=ml"
                        + "|- agent.kafka: bootstrapServers is required",
                "agent.enabled=true,agent.cluster=gpu-east,agent.allowedNamespaces[0]=ml,agent.kafka.bootstrapServers=k:9092,agent.podSecurityLevel=privileged"
                        + "|agent.podSecurityLevel must be one of the following: \"baseline\", \"restricted\"",
                "agent.enabled=true,agent.cluster=gpu-east,agent.allowedNamespaces[0]=ml,agent.kafka.bootstrapServers=k:9092,agent.kafka.sasl.enabled=true,agent.kafka.sasl.username=u"
                        + "|- agent.kafka.sasl.passwordSecret.name: String length must be greater than or equal to 1",
                "agent.enabled=true,agent.cluster=gpu-east,agent.allowedNamespaces[0]=ml,agent.kafka.bootstrapServers=k:9092,agent.kafka.sasl.enabled=true,agent.kafka.sasl.passwordSecret.name=s,agent.kafka.sasl.mechanism=GSSAPI"
                        + "|agent.kafka.sasl.mechanism must be one of the following: \"SCRAM-SHA-512\", \"SCRAM-SHA-256\", \"PLAIN\"",
                "broker.enabled=true|- broker.kafka: bootstrapServers is required",
                "broker.enabled=true,broker.kafka.bootstrapServers=k:9092,broker.leaderElection.enabled=false"
                        + "|- broker.leaderElection.enabled: broker.leaderElection.enabled does not match: true",
                "broker.enabled=true,broker.kafka.bootstrapServers=k:9092,broker.auth.mode=token-file"
                        + "|broker.auth.tokenFile.secretName is required",
            })
    void aBadValueSetIsRefusedNamingTheValue(String sets, String refusal) {
        Map<String, Object> pairs = new java.util.LinkedHashMap<>();
        for (String pair : sets.split(",")) {
            String[] kv = pair.split("=", 2);
            pairs.put(kv[0], kv[1]);
        }

        assertThatThrownBy(() -> Chart.template(List.of(), pairs))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(refusal);
    }

    private static List<String> errors(LintResult lint) {
        return lint.getMessages().stream().filter(m -> m.contains("[ERROR]")).toList();
    }
}
