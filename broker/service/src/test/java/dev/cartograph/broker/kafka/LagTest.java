package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LagTest {

    @Test
    void sumsEachTopicsPartitionLagAndIgnoresEverythingElse() {
        Map<MetricName, Metric> metrics = new HashMap<>();
        put(metrics, Lag.NAME, Lag.GROUP, Map.of("topic", "t.placements", "partition", "0"), 5.0);
        put(metrics, Lag.NAME, Lag.GROUP, Map.of("topic", "t.placements", "partition", "1"), 7.0);
        put(metrics, Lag.NAME, Lag.GROUP, Map.of("topic", "t.from.east.cluster", "partition", "0"), 0.0);
        // not fetched from yet: Kafka's NaN counts for nothing
        put(metrics, Lag.NAME, Lag.GROUP, Map.of("topic", "t.from.west.cluster", "partition", "0"), Double.NaN);
        // the per-topic aggregate and other metrics are not partition lag
        put(metrics, "records-lag-max", Lag.GROUP, Map.of("topic", "t.placements"), 99.0);
        put(metrics, Lag.NAME, Lag.GROUP, Map.of("client-id", "c"), 42.0);
        put(metrics, Lag.NAME, "producer-metrics", Map.of("topic", "t.placements", "partition", "0"), 13.0);

        // by hand: placements 5 + 7 = 12; east 0; west 0
        assertThat(Lag.byTopic(metrics))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("t.placements", 12L, "t.from.east.cluster", 0L, "t.from.west.cluster", 0L));
    }

    private static void put(
            Map<MetricName, Metric> metrics, String name, String group, Map<String, String> tags, double value) {
        MetricName n = new MetricName(name, group, "", tags);
        metrics.put(n, new Metric() {
            @Override
            public MetricName metricName() {
                return n;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        });
    }
}
