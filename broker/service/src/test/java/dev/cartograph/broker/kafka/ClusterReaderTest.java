package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.ClusterAssembly;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a cluster topic's records are read: up to the last header once the consumer has handed over all it had of
 * the partition, the rest waiting for the next header; everything waiting up to its last header before the
 * coordinator is told a point was reached; at once past the bound. What is handed on is checked by hand.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ClusterReaderTest {
    static final String TOPIC = "cartograph.from.gpu-a.cluster";
    static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    static final Stamp STAMP = new Stamp("i-1", 0);
    static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");

    final Map<String, ClusterAssembly> assemblies = new HashMap<>();
    /** What was handed on: key, the node's allocated GPUs or the header's sequence, and "last" for the run's last header. */
    final List<String> handled = new ArrayList<>();

    final ClusterReader reader = new ClusterReader(
            new Records(new Topics("cartograph")),
            cluster -> assemblies.computeIfAbsent(cluster, ClusterAssembly::new),
            (r, read, lastHeader) -> {
                String what = read instanceof Records.Read.Part p ? describe(p.record()) : "poison";
                handled.add(r.key() + "=" + what + (lastHeader ? " last" : ""));
                if (read instanceof Records.Read.Part p) {
                    assemblies.get("gpu-a").apply(p.record());
                }
            });
    long offset;

    static String describe(ClusterRecord r) {
        if (r instanceof ClusterRecord.Header h) {
            return "seq" + h.sequence();
        }
        return "gpu" + ((ClusterRecord.Node) r).node().allocated().get("nvidia.com/gpu");
    }

    ConsumerRecord<String, byte[]> node(String name, int used) {
        ClusterRecord.Node n = new ClusterRecord.Node("gpu-a", STAMP, NewestTest.node(name, used));
        return new ConsumerRecord<>(TOPIC, 0, offset++, n.key().kafkaKey(), Wire.encode(n));
    }

    ConsumerRecord<String, byte[]> header(long sequence) {
        ClusterRecord.Header h =
                new ClusterRecord.Header("gpu-a", Map.of(), "0.1.0", STAMP, sequence, T0.plusSeconds(sequence), 3, 0);
        return new ConsumerRecord<>(TOPIC, 0, offset++, "gpu-a", Wire.encode(h));
    }

    @Test
    void whileTheConsumerHasMoreOfAPartitionItsRecordsWaitThenTheNewestOfEachKeyIsReadUpToTheLastHeader() {
        reader.read(TP, "gpu-a", List.of(node("n1", 1), node("n2", 1)), true);
        assertThat(handled).isEmpty();
        assertThat(reader.waiting(TP)).isEqualTo(2);

        reader.read(TP, "gpu-a", List.of(header(1), node("n1", 2), header(2), node("n3", 1)), true);
        assertThat(handled).isEmpty();

        reader.read(TP, "gpu-a", List.of(node("n2", 3), header(3), node("n1", 4)), false);
        // by hand: n1 changed after header 3 (waits), n1=2 is its newest before it; n2=3 supersedes n2=1;
        // headers 1 and 2 are superseded by header 3 (one stamp, rising sequence)
        assertThat(handled).containsExactly("node/n1=gpu2", "node/n3=gpu1", "node/n2=gpu3", "gpu-a=seq3 last");
        assertThat(reader.waiting(TP)).isEqualTo(1);
        assertThat(assemblies.get("gpu-a").take().orElseThrow().summary().nodes())
                .extracting(n -> n.name() + "=" + n.allocated().get("nvidia.com/gpu"))
                .containsExactly("n1=2", "n2=3", "n3=1");
    }

    @Test
    void whatWaitsIsReadOnceThePartitionIsNoLongerBehindOrBeforeTheCoordinatorIsToldAPointWasReached() {
        reader.read(TP, "gpu-a", List.of(node("n1", 1), header(1), node("n2", 1)), true);
        reader.settle(Set.of(TP));
        assertThat(handled).isEmpty();
        reader.settle(Set.of()); // e.g. only a transaction marker was left to read
        assertThat(handled).containsExactly("node/n1=gpu1", "gpu-a=seq1 last");
        assertThat(reader.waiting(TP)).isEqualTo(1);

        handled.clear();
        reader.read(TP, "gpu-a", List.of(header(2), node("n3", 1)), true);
        reader.flush();
        assertThat(handled).containsExactly("node/n2=gpu1", "gpu-a=seq2 last");
        assertThat(reader.waiting(TP)).isEqualTo(1);

        reader.forget(TP);
        assertThat(reader.waiting(TP)).isZero();
    }

    @Test
    void pastTheBoundRecordsWithoutAHeaderAreReadAtOnceNewestPerKey() {
        List<ConsumerRecord<String, byte[]>> many = new ArrayList<>();
        for (int i = 0; i <= ClusterReader.MAX_WAITING; i++) {
            many.add(node("n" + (i % 3), i % 2));
        }
        reader.read(TP, "gpu-a", many.subList(0, ClusterReader.MAX_WAITING), true);
        assertThat(handled).isEmpty();
        reader.read(TP, "gpu-a", many.subList(ClusterReader.MAX_WAITING, many.size()), true);
        // by hand: 20,001 records over n0, n1, n2; the last three (i = 19,998..20,000) are each key's newest
        assertThat(handled).containsExactly("node/n0=gpu0", "node/n1=gpu1", "node/n2=gpu0");
        assertThat(reader.waiting(TP)).isZero();
    }
}
