package dev.cartograph.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.usage.UsageKey;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The GPU-seconds counter rises by exactly what the ledger adds. */
@Timeout(10)
class UsageMetricsTest {
    @Test
    void countsGpuSecondsPerQueueNamespaceAndModelInPrometheusForm() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        UsageMetrics metrics = new UsageMetrics(registry);
        UsageKey ml = new UsageKey("team-a", "ml", "NVIDIA-H100-80GB-HBM3");

        // 8 GPUs for 1,200 s, then for 3,600 s: 9,600 + 28,800 = 38,400 GPU-s; 1 unlabelled GPU for 1.5 s
        metrics.added(Map.of(ml, 9_600_000L));
        metrics.added(Map.of(ml, 28_800_000L, new UsageKey("default", "cv", ""), 1_500L));

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("cartograph_queue_gpu_seconds_total{gpu_model=\"NVIDIA-H100-80GB-HBM3\",namespace=\"ml\","
                        + "queue=\"team-a\"} 38400.0")
                .contains("cartograph_queue_gpu_seconds_total{gpu_model=\"none\",namespace=\"cv\",queue=\"default\"}"
                        + " 1.5");
    }
}
