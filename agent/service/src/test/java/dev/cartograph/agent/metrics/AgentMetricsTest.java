package dev.cartograph.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.CommandResult.Outcome;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class AgentMetricsTest {

    @Test
    void countsSummariesAndCommandsByOutcomeAndTimesOnlyApplies() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AgentMetrics metrics = new AgentMetrics(registry);
        metrics.summaryPublished();
        metrics.summaryPublished();
        metrics.command("apply", Outcome.APPLIED, metrics.started());
        metrics.command("apply", Outcome.REJECTED, metrics.started());
        metrics.command("delete", Outcome.DELETED, metrics.started());

        String text = registry.scrape();
        assertThat(text)
                .contains("cartograph_agent_summaries_published_total 2.0")
                .contains("cartograph_agent_commands_total{command=\"apply\",outcome=\"applied\"} 1.0")
                .contains("cartograph_agent_commands_total{command=\"apply\",outcome=\"rejected\"} 1.0")
                .contains("cartograph_agent_commands_total{command=\"delete\",outcome=\"deleted\"} 1.0")
                .contains("cartograph_agent_commands_total{command=\"delete\",outcome=\"retry\"} 0.0")
                .contains("# TYPE cartograph_agent_apply_seconds histogram")
                .contains("cartograph_agent_apply_seconds_count 2"); // the two applies, not the delete
    }

    @Test
    void informerRowsFollowTheInformersTheAgentRuns() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AgentMetrics metrics = new AgentMetrics(registry);
        Map<String, Boolean> informers = new TreeMap<>(Map.of("nodes", true, "pods", false));
        metrics.informers(() -> informers);
        metrics.refresh();
        assertThat(registry.scrape())
                .contains("cartograph_agent_informer_synced{resource=\"nodes\"} 1.0")
                .contains("cartograph_agent_informer_synced{resource=\"pods\"} 0.0");

        informers.put("pods", true);
        informers.put("Job.v1.batch", false);
        metrics.refresh();
        assertThat(registry.scrape())
                .contains("cartograph_agent_informer_synced{resource=\"pods\"} 1.0")
                .contains("cartograph_agent_informer_synced{resource=\"Job.v1.batch\"} 0.0");
    }
}
