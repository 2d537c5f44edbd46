package dev.cartograph.broker.kafka;

import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.Owned;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the ingest's decoding threads ({@link Decoders}) and what it alone holds: its {@link Records} (with their
 * node parts), its {@link ClusterReader} and its {@link Summaries}, for the partitions given to it. Those are decoded
 * and handed on here in the order read: a cluster topic's records through the reader into the cluster's summary, any
 * other topic's record by record. {@link #then} is called by one thread (the polling thread); every other method
 * runs on this shard's thread, as a step handed to {@link #then}.
 */
final class Shard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Shard.class);

    private final Topics topics;
    private final Decoders.Out out;
    private final Records records;
    private final Summaries summaries;
    private final ClusterReader clusterReader;
    private final Decoding decoding;

    /** @param heardOf told once of each cluster whose summary is handed on (see {@link Summaries}); thread-safe */
    Shard(String thread, Topics topics, Decoders.Out out, Consumer<String> heardOf) {
        this.topics = topics;
        this.out = out;
        this.records = new Records(topics);
        this.summaries = new Summaries(out::post, heardOf);
        this.clusterReader = new ClusterReader(records, summaries::assembly, this::handle);
        this.decoding = new Decoding(thread);
    }

    /** Runs {@code step} on this shard's thread after those handed over before it (blocks while several wait). */
    void then(Runnable step) {
        decoding.then(step);
    }

    /**
     * One poll's records of the partitions given to this shard, each in order ({@code clusters}: the cluster whose
     * cluster topic a partition is, if it is one); then what waits for partitions no longer {@code behind} is read.
     */
    void deliver(
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> polled,
            Map<TopicPartition, String> clusters,
            Set<TopicPartition> behind) {
        polled.forEach((tp, rs) -> {
            String cluster = clusters.get(tp);
            if (cluster != null) {
                clusterReader.read(tp, cluster, rs, behind.contains(tp));
            } else {
                rs.forEach(r -> handle(r, records.read(r.topic(), r.key(), r.value()), false));
            }
        });
        clusterReader.settle(behind);
    }

    /** Reads everything waiting up to its partition's last header (a point is about to be said reached). */
    void flush() {
        clusterReader.flush();
    }

    /** The partition's topic is gone: what waited for it, and its cluster's summary, are dropped. */
    void forget(TopicPartition tp, String cluster) {
        clusterReader.forget(tp);
        summaries.forget(cluster);
    }

    private void handle(ConsumerRecord<String, byte[]> r, Records.Read read, boolean lastHeader) {
        if (read instanceof Records.Read.Deliver d) {
            out.post(d.input());
        } else if (read instanceof Records.Read.Part p) {
            summaries.part(p, lastHeader).ifPresent(reason -> poison(r, reason));
        } else if (read instanceof Records.Read.Poison p) {
            p.unreadable().ifPresent(summaries::unreadable);
            poison(r, p.reason());
            if (lastHeader) { // a refused header: what was completed before it is still handed on
                topics.owner(r.topic()).map(Owned::cluster).ifPresent(summaries::take);
            }
        }
    }

    private void poison(ConsumerRecord<String, byte[]> r, String reason) {
        out.poison();
        LOG.warn("skipping record at {}-{} offset {}: {}", r.topic(), r.partition(), r.offset(), reason);
    }

    /** Asks the shard's thread to stop after the step running now; does not wait. */
    void stop() {
        decoding.stop();
    }

    /** Stops after the step running now (steps still waiting are dropped). */
    @Override
    public void close() {
        decoding.close();
    }
}
