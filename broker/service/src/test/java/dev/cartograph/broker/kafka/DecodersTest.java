package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Decoding on several threads against one, on random topics of several clusters (nodes changing, tombstones,
 * records that cannot be read or claim another cluster, headers of several stamps whose sequences sometimes go
 * back) and the placements topic, cut into random polls with random partitions behind: every cluster gets the same
 * summaries in the same order, so the fleet ends the same; the placements topic's records come in their order; as
 * much poison is counted; and the point reached is said after everything handed over before it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DecodersTest {
    static final Topics TOPICS = new Topics("cartograph");
    static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
    static final Stamp[] STAMPS = {new Stamp("i-1", 0), new Stamp("i-1", 1), new Stamp("i-2", 0)};
    static final TopicPartition PLACEMENTS = new TopicPartition(TOPICS.placements(), 0);

    /** What one way of decoding handed on. */
    record Result(
            Map<String, List<Input.Cluster>> byCluster,
            List<Input> placements,
            int poison,
            Map<String, ClusterSummary> fleet,
            Input last) {}

    @Test
    void severalDecodingThreadsHandOnWhatOneThreadDoes() throws Exception {
        int summaries = 0;
        for (long seed = 0; seed < 60; seed++) {
            Random r = new Random(seed);
            int clusters = 2 + r.nextInt(6);
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> topics = new LinkedHashMap<>();
            for (int c = 0; c < clusters; c++) {
                String cluster = "gpu-" + c;
                topics.put(new TopicPartition(TOPICS.of(cluster, Topics.AgentTopic.CLUSTER), 0), topic(r, cluster));
            }
            topics.put(PLACEMENTS, placements(r));
            List<ConsumerRecords<String, byte[]>> polls = new ArrayList<>();
            List<Set<TopicPartition>> behind = new ArrayList<>();
            cut(r, topics, polls, behind);

            Result one = decode(1, polls, behind);
            Result several = decode(2 + r.nextInt(3), polls, behind);
            String where = "seed " + seed;
            assertThat(several.byCluster()).as(where).isEqualTo(one.byCluster());
            assertThat(several.placements()).as(where).isEqualTo(one.placements());
            assertThat(several.poison()).as(where).isEqualTo(one.poison());
            assertThat(several.fleet()).as(where).isEqualTo(one.fleet());
            assertThat(several.last()).as(where).isInstanceOf(Input.CaughtUp.class);
            summaries += one.byCluster().values().stream().mapToInt(List::size).sum();
        }
        assertThat(summaries).as("summaries handed on in all tries").isGreaterThan(300);
    }

    @Test
    void decodingThreadsAreTheProcessorsBeyondThePollingThreadsAndTheCoordinators() {
        assertThat(Ingest.decodingThreads(1)).isEqualTo(1);
        assertThat(Ingest.decodingThreads(2)).isEqualTo(1);
        assertThat(Ingest.decodingThreads(4)).isEqualTo(2);
        assertThat(Ingest.decodingThreads(64)).isEqualTo(4);
    }

    private static Result decode(
            int threads, List<ConsumerRecords<String, byte[]>> polls, List<Set<TopicPartition>> behind)
            throws InterruptedException {
        List<Input> posted = new ArrayList<>();
        AtomicInteger poison = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        Decoders.Out out = new Decoders.Out() {
            @Override
            public void post(Input input) {
                synchronized (posted) {
                    posted.add(input);
                }
            }

            @Override
            public void poison() {
                poison.incrementAndGet();
            }
        };
        try (Decoders decoders = new Decoders(threads, TOPICS, DecodersTest::cluster, out, cluster -> {})) {
            for (int i = 0; i < polls.size(); i++) {
                decoders.deliver(polls.get(i), behind.get(i));
            }
            decoders.flushThen(() -> {
                out.post(new Input.CaughtUp());
                done.countDown();
            });
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        }
        Map<String, List<Input.Cluster>> byCluster = new TreeMap<>();
        List<Input> placements = new ArrayList<>();
        Fleet fleet = new Fleet();
        synchronized (posted) {
            for (Input input : posted) {
                if (input instanceof Input.Cluster c) {
                    byCluster
                            .computeIfAbsent(c.summary().cluster(), k -> new ArrayList<>())
                            .add(c);
                    fleet.accept(c.summary(), T0, c.changedNodes().orElse(null));
                } else if (input instanceof Input.Placement) {
                    placements.add(input);
                }
            }
            return new Result(
                    byCluster, placements, poison.get(), fleet.snapshot().clusters(), posted.get(posted.size() - 1));
        }
    }

    private static String cluster(TopicPartition tp) {
        return TOPICS.owner(tp.topic())
                .filter(o -> o.topic() == Topics.AgentTopic.CLUSTER)
                .map(Topics.Owned::cluster)
                .orElse(null);
    }

    /** Polls taking a few records at a time from random partitions; some partitions behind (more of them held). */
    private static void cut(
            Random r,
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> topics,
            List<ConsumerRecords<String, byte[]>> polls,
            List<Set<TopicPartition>> behind) {
        Map<TopicPartition, Integer> at = new LinkedHashMap<>();
        topics.keySet().forEach(tp -> at.put(tp, 0));
        while (at.entrySet().stream()
                .anyMatch(e -> e.getValue() < topics.get(e.getKey()).size())) {
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> poll = new LinkedHashMap<>();
            for (TopicPartition tp : topics.keySet()) {
                List<ConsumerRecord<String, byte[]>> all = topics.get(tp);
                int from = at.get(tp);
                if (from < all.size() && r.nextInt(3) > 0) {
                    int to = Math.min(all.size(), from + 1 + r.nextInt(12));
                    poll.put(tp, all.subList(from, to));
                    at.put(tp, to);
                }
            }
            Set<TopicPartition> more = new HashSet<>();
            at.forEach((tp, from) -> {
                if (from < topics.get(tp).size() && r.nextInt(4) > 0) {
                    more.add(tp);
                }
            });
            polls.add(new ConsumerRecords<>(poll, Map.of()));
            behind.add(more);
        }
    }

    /** A random cluster topic: rounds of node and placement records, each ended by a header (mostly well-behaved). */
    private static List<ConsumerRecord<String, byte[]>> topic(Random r, String cluster) {
        String topic = TOPICS.of(cluster, Topics.AgentTopic.CLUSTER);
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        int rounds = 1 + r.nextInt(10);
        long sequence = 1;
        int stamp = 0;
        for (int round = 0; round < rounds; round++) {
            if (r.nextInt(6) == 0) {
                stamp = r.nextInt(STAMPS.length);
            }
            for (int i = r.nextInt(14); i > 0; i--) {
                Stamp s = STAMPS[r.nextInt(10) == 0 ? r.nextInt(STAMPS.length) : stamp];
                add(out, topic, record(r, cluster, s));
            }
            sequence = r.nextInt(8) == 0 ? Math.max(1, sequence - r.nextInt(3)) : sequence + 1;
            String claimed = r.nextInt(25) == 0 ? "elsewhere" : cluster;
            add(
                    out,
                    topic,
                    new Written(
                            cluster,
                            Wire.encode(new ClusterRecord.Header(
                                    claimed,
                                    Map.of(),
                                    "0.1.0",
                                    STAMPS[stamp],
                                    sequence,
                                    T0.plusSeconds(2 * sequence),
                                    r.nextInt(8),
                                    0))));
        }
        for (int i = r.nextInt(4); i > 0; i--) {
            add(out, topic, record(r, cluster, STAMPS[stamp])); // a tail no header completes yet
        }
        return out;
    }

    private static List<ConsumerRecord<String, byte[]>> placements(Random r) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        for (int i = r.nextInt(10); i > 0; i--) {
            String uid = "u" + r.nextInt(4);
            add(out, TOPICS.placements(), new Written(uid, r.nextInt(4) == 0 ? null : Wire.encode(placement(uid, i))));
        }
        return out;
    }

    private static PlacementRecord placement(String uid, long epoch) {
        return new PlacementRecord(
                uid,
                new PlacementRecord.Target("ml", "batch/v1", "Job", "job-" + uid),
                Optional.of("gpu-0"),
                epoch,
                PlacementRecord.State.PLACED,
                "",
                Map.of(),
                0,
                T0,
                T0);
    }

    record Written(String key, byte[] value) {}

    private static void add(List<ConsumerRecord<String, byte[]>> out, String topic, Written w) {
        out.add(new ConsumerRecord<>(topic, 0, out.size(), w.key(), w.value()));
    }

    private static Written record(Random r, String cluster, Stamp s) {
        int pick = r.nextInt(20);
        String node = "n" + r.nextInt(6);
        if (pick < 12) {
            return new Written(
                    "node/" + node,
                    Wire.encode(new ClusterRecord.Node(cluster, s, NewestTest.node(node, r.nextInt(4)))));
        } else if (pick < 14) {
            return new Written("node/" + node, null);
        } else if (pick < 16) {
            PlacementReport p = new PlacementReport("p" + r.nextInt(3), 1, r.nextInt(2), ResourceList.EMPTY);
            return new Written("placement/" + p.placementId(), Wire.encode(new ClusterRecord.Placed(cluster, s, p)));
        } else if (pick < 17) {
            return new Written("node/" + node, "{not json".getBytes(StandardCharsets.UTF_8));
        } else if (pick < 18) {
            return new Written(
                    "node/" + node, Wire.encode(new ClusterRecord.Node("elsewhere", s, NewestTest.node(node, 1))));
        }
        return new Written("node/" + node, Wire.encode(new ClusterRecord.Node(cluster, s, NewestTest.node(node, 2))));
    }
}
