package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.protocol.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * The ingest's decoding threads ({@link Shard}s), so that clusters are decoded side by side: each cluster (every
 * partition of its cluster topic) and each other partition is given to one shard when first read, in turn, and stays
 * there. A partition's records are thus decoded and handed on in the order read, as by one thread; records of
 * different partitions never had an order between them (a cluster topic's wait for its next header), and no cluster's
 * summary depends on another's. A point reached ({@link #flushThen}) is said once every shard has handed on all it
 * was given before. {@link #deliver}, {@link #forget} and {@link #flushThen} are called by one thread (the polling
 * thread); {@link #close} by any.
 */
final class Decoders implements AutoCloseable {
    /** Where what is decoded goes (the coordinator). Thread-safe: every shard calls it. */
    interface Out {
        void post(Input input);

        /** A record was refused (counted; the shard logs it). */
        void poison();
    }

    private final List<Shard> shards = new ArrayList<>();
    private final Function<TopicPartition, String> clusterOf;
    /** Each cluster's shard (by name), and each other partition's. */
    private final Map<Object, Shard> given = new HashMap<>();

    private int turn;

    /**
     * @param threads   how many shards (at least one)
     * @param clusterOf the cluster whose cluster topic a partition is; null for any other topic
     * @param heardOf   told once of each cluster whose summary is handed on; thread-safe
     */
    Decoders(
            int threads, Topics topics, Function<TopicPartition, String> clusterOf, Out out, Consumer<String> heardOf) {
        if (threads < 1) {
            throw new IllegalArgumentException("at least one decoding thread");
        }
        this.clusterOf = clusterOf;
        for (int i = 0; i < threads; i++) {
            shards.add(new Shard("ingest-decode-" + i, topics, out, heardOf));
        }
    }

    /** Hands one poll's records to their shards; every shard gets a step, so what waits on it may go on. */
    void deliver(ConsumerRecords<String, byte[]> batch, Set<TopicPartition> behind) {
        Map<Shard, Map<TopicPartition, List<ConsumerRecord<String, byte[]>>>> split = new HashMap<>();
        Map<TopicPartition, String> clusters = new HashMap<>();
        for (TopicPartition tp : batch.partitions()) {
            String cluster = clusterOf.apply(tp);
            if (cluster != null) {
                clusters.put(tp, cluster);
            }
            Shard shard =
                    given.computeIfAbsent(cluster != null ? cluster : tp, k -> shards.get(turn++ % shards.size()));
            split.computeIfAbsent(shard, s -> new LinkedHashMap<>()).put(tp, batch.records(tp));
        }
        for (Shard shard : shards) {
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> mine = split.getOrDefault(shard, Map.of());
            shard.then(() -> shard.deliver(mine, clusters, behind));
        }
    }

    /**
     * Runs {@code then} once every shard has read all it was given up to its partitions' last headers (on the
     * shard thread that finishes last).
     */
    void flushThen(Runnable then) {
        AtomicInteger left = new AtomicInteger(shards.size());
        for (Shard shard : shards) {
            shard.then(() -> {
                shard.flush();
                if (left.decrementAndGet() == 0) {
                    then.run();
                }
            });
        }
    }

    /** A cluster topic's partition is no longer read (its topic is gone): whichever shard held it drops it. */
    void forget(TopicPartition tp, String cluster) {
        shards.forEach(shard -> shard.then(() -> shard.forget(tp, cluster)));
    }

    /** Stops every shard after its step running now. */
    @Override
    public void close() {
        shards.forEach(Shard::stop); // all at once, then each waited for
        shards.forEach(Shard::close);
    }
}
