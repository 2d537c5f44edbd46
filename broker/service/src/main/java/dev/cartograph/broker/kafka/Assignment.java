package dev.cartograph.broker.kafka;

import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import dev.cartograph.protocol.Topics.Owned;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which partitions the ingest reads: {@code P.placements} and every cluster's own topics, found by their names (at
 * start, every {@value #DISCOVER_EVERY_SECONDS} s, and when asked); a new cluster's topics are added and read from the
 * beginning, a removed cluster's let go of. The ingest thread changes it; the cluster topics' partitions are read by
 * the decoding thread too.
 */
final class Assignment {
    private static final Logger LOG = LoggerFactory.getLogger(Assignment.class);
    static final long DISCOVER_EVERY_SECONDS = 2;

    private final KafkaConsumer<String, byte[]> consumer;
    private final Topics topics;
    /** Told of a cluster topic's partition no longer read (its topic is gone), with its cluster. */
    private final BiConsumer<TopicPartition, String> clusterGone;

    private final Set<TopicPartition> assigned = new LinkedHashSet<>();
    private final Map<TopicPartition, String> clusterTopics = new ConcurrentHashMap<>();
    private long discovered;

    Assignment(KafkaConsumer<String, byte[]> consumer, Topics topics, BiConsumer<TopicPartition, String> clusterGone) {
        this.consumer = consumer;
        this.topics = topics;
        this.clusterGone = clusterGone;
    }

    /** The first assignment: the placements topic (it must have partitions already) and every cluster's topics. */
    void start(Map<String, List<PartitionInfo>> all) {
        List<PartitionInfo> placements = all.getOrDefault(topics.placements(), List.of());
        if (placements.isEmpty()) {
            // just created: its metadata has not reached this client yet
            throw new IllegalStateException("topic " + topics.placements() + " has no partitions yet");
        }
        List<TopicPartition> first = new ArrayList<>(partitions(topics.placements(), placements));
        first.addAll(clusterPartitions(all));
        add(first);
    }

    /** Whether it is time to look for new clusters again. */
    boolean due() {
        return System.nanoTime() - discovered
                >= Duration.ofSeconds(DISCOVER_EVERY_SECONDS).toNanos();
    }

    /**
     * Adds the partitions of cluster topics that appeared since the last look, read from the beginning,
     * and lets go of those whose topic is gone (a removed cluster's, deleted by an operator): a deleted
     * partition would otherwise fail every end-offset request, and a new leader's catch-up with it.
     */
    void discover() {
        Map<String, List<PartitionInfo>> all = consumer.listTopics(Duration.ofSeconds(10));
        List<TopicPartition> gone = assigned.stream()
                .filter(tp -> topics.owner(tp.topic()).isPresent() && !all.containsKey(tp.topic()))
                .toList();
        if (!gone.isEmpty()) {
            gone.forEach(assigned::remove);
            for (TopicPartition tp : gone) {
                String cluster = clusterTopics.remove(tp);
                if (cluster != null) {
                    clusterGone.accept(tp, cluster);
                }
            }
            consumer.assign(assigned);
            LOG.info("no longer reading {}: the topics are gone", gone);
        }
        add(clusterPartitions(all));
    }

    /** What the consumer is assigned (ingest thread only). */
    Set<TopicPartition> assigned() {
        return assigned;
    }

    /** The cluster whose cluster topic this partition is; null for any other topic (thread-safe). */
    String cluster(TopicPartition tp) {
        return clusterTopics.get(tp);
    }

    /** The assigned cluster topics' partitions. */
    Set<TopicPartition> clusterPartitions() {
        return clusterTopics.keySet();
    }

    /** The partitions of every agent-written topic in {@code all} not assigned yet. */
    private List<TopicPartition> clusterPartitions(Map<String, List<PartitionInfo>> all) {
        List<TopicPartition> found = new ArrayList<>();
        all.forEach((topic, infos) -> {
            if (topics.owner(topic).isPresent() && infos != null) {
                partitions(topic, infos).stream()
                        .filter(tp -> !assigned.contains(tp))
                        .forEach(found::add);
            }
        });
        return found;
    }

    private static List<TopicPartition> partitions(String topic, List<PartitionInfo> infos) {
        return infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    }

    /** Assigns {@code fresh} besides what is assigned (whose positions stay), from their beginning. */
    private void add(List<TopicPartition> fresh) {
        discovered = System.nanoTime();
        if (fresh.isEmpty()) {
            return;
        }
        assigned.addAll(fresh);
        fresh.forEach(tp -> topics.owner(tp.topic())
                .filter(o -> o.topic() == AgentTopic.CLUSTER)
                .ifPresent(o -> clusterTopics.put(tp, o.cluster())));
        consumer.assign(assigned);
        consumer.seekToBeginning(fresh);
        Set<String> clusters = new TreeSet<>();
        fresh.forEach(tp -> topics.owner(tp.topic()).map(Owned::cluster).ifPresent(clusters::add));
        if (!clusters.isEmpty()) {
            LOG.info("reading the topics of cluster(s) {}", clusters);
        }
    }
}
