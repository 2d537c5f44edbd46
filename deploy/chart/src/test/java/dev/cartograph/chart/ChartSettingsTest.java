package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every setting the chart writes into a service's configuration file is one that service binds: a key of
 * {@code cartograph.broker.*} is a component of BrokerProperties, of {@code cartograph.agent.*} one of
 * AgentProperties (read from their sources, in kebab case as Micronaut binds them). A misspelt key would be
 * silently ignored by the service; here it fails by name.
 */
@Timeout(120)
class ChartSettingsTest {
    static final String BROKER = "broker/service/src/main/java/dev/cartograph/broker/config/BrokerProperties.java";
    static final String AGENT = "agent/service/src/main/java/dev/cartograph/agent/config/AgentProperties.java";

    static List<String> examples() {
        return Chart.examples();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyKeyTheChartWritesIsASettingOfTheService(String example) throws IOException {
        Rendered r = Chart.template(example);
        List<String> unknown = new ArrayList<>();
        for (String[] role : new String[][] {{"broker", BROKER}, {"agent", AGENT}}) {
            if (r.find("ConfigMap", Chart.RELEASE + "-" + role[0]).isEmpty()) {
                continue;
            }
            Set<String> settings = settings(role[1]);
            r.config(role[0]).fieldNames().forEachRemaining(key -> {
                if (!settings.contains(key)) {
                    unknown.add("cartograph." + role[0] + "." + key);
                }
            });
        }
        assertThat(unknown).as("%s: keys no service binds", example).isEmpty();
    }

    @Test
    void theSettingsAreReadFromTheSources() throws IOException {
        // hand-picked from the two records (24 and 20 components today, counted by hand), so a broken parse
        // cannot pass the test above by reading nothing or garbage
        assertThat(settings(BROKER))
                .contains("id", "bootstrap-servers", "kafka", "lease-namespace", "lease-name", "auth-cache-size")
                .hasSizeGreaterThanOrEqualTo(24)
                .allMatch(k -> k.matches("[a-z][a-z0-9-]*"));
        assertThat(settings(AGENT))
                .contains(
                        "cluster",
                        "allowed-namespaces",
                        "agent-namespace",
                        "self-fence-after",
                        "topic-min-insync-replicas")
                .hasSizeGreaterThanOrEqualTo(20)
                .allMatch(k -> k.matches("[a-z][a-z0-9-]*"));
    }

    @Test
    void theHubAndMemberSetTheSettingsTheirRolesNeed() {
        JsonNode broker = Chart.template("values-hub.yaml").config("broker");
        JsonNode agent = Chart.template("values-member.yaml").config("agent");

        assertThat(broker.has("bootstrap-servers")).isTrue();
        assertThat(agent.has("cluster")).isTrue();
        assertThat(agent.has("bootstrap-servers")).isTrue();
    }

    /** The record's component names in kebab case: {@code leaseNamespace} is {@code lease-namespace}. */
    static Set<String> settings(String source) throws IOException {
        String text = Files.readString(Chart.REPO.resolve(source));
        String header = text.substring(text.indexOf("public record "), text.indexOf(") {}"));
        header = header.substring(header.indexOf('(') + 1)
                .replaceAll("//[^\n]*", "")
                .replaceAll("@[\\w.]+(\\([^)]*\\))?", "")
                .replaceAll("<[^>]*>", "");
        return Arrays.stream(header.split(","))
                .map(String::trim)
                .map(c -> c.substring(c.lastIndexOf(' ') + 1))
                .map(name -> name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.toSet());
    }
}
