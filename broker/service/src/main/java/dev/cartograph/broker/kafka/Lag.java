package dev.cartograph.broker.kafka;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * How far the ingest is behind the log end, per topic: the sum over the topic's partitions of the consumer's own
 * {@code records-lag} (what its last fetch saw between its position and the partition's high watermark, or the
 * last stable offset when reading committed). Read from the consumer's metrics, so asking costs no call to Kafka.
 * Pure.
 */
final class Lag {
    static final String GROUP = "consumer-fetch-manager-metrics";
    static final String NAME = "records-lag";

    private Lag() {}

    /** Records behind, per topic, from a consumer's metrics; a partition not fetched from yet counts for nothing. */
    static Map<String, Long> byTopic(Map<MetricName, ? extends Metric> metrics) {
        Map<String, Long> lag = new TreeMap<>();
        metrics.forEach((name, metric) -> {
            if (!NAME.equals(name.name()) || !GROUP.equals(name.group())) {
                return;
            }
            String topic = name.tags().get("topic");
            if (topic == null || !name.tags().containsKey("partition")) {
                return;
            }
            Object value = metric.metricValue();
            long records = value instanceof Number n && Double.isFinite(n.doubleValue()) ? (long) n.doubleValue() : 0;
            lag.merge(topic, Math.max(0, records), Long::sum);
        });
        return lag;
    }
}
