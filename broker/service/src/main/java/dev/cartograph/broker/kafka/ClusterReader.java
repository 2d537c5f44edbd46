package dev.cartograph.broker.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads cluster topics into their summaries, on the decoding thread. A cluster's summary is taken only at a
 * header, so the records read after a partition's last header wait, undecoded, for the next one (at most
 * {@value #MAX_WAITING}; past that they are read at once): every run up to a header is then decoded at once,
 * newest record per key ({@link Newest}), however the polls cut the topic. Not thread-safe: the decoding thread.
 */
final class ClusterReader {
    /** Records of one partition that may wait for a header, undecoded. */
    static final int MAX_WAITING = 20_000;

    /** Takes one record as read: a part of a summary, or poison; {@code lastHeader}: the run's last header. */
    interface Handler {
        void handle(ConsumerRecord<String, byte[]> r, Records.Read read, boolean lastHeader);
    }

    private final Records records;
    private final Summaries summaries;
    private final Handler handler;
    private final Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> waiting = new HashMap<>();

    ClusterReader(Records records, Summaries summaries, Handler handler) {
        this.records = records;
        this.summaries = summaries;
        this.handler = handler;
    }

    /** Takes one poll's records of {@code cluster}'s cluster topic partition {@code tp}, in order. */
    void read(TopicPartition tp, String cluster, List<ConsumerRecord<String, byte[]>> polled) {
        List<ConsumerRecord<String, byte[]>> run = waiting.remove(tp);
        if (run == null) {
            run = polled;
        } else {
            run.addAll(polled);
        }
        int last = lastHeader(run);
        if (last < 0) {
            if (run.size() <= MAX_WAITING) {
                waiting.put(tp, new ArrayList<>(run));
            } else {
                List<ConsumerRecord<String, byte[]>> all = run;
                apply(all, Newest.withoutHeader(keys(all), decode(all), summaries.assembly(cluster)), -1);
            }
            return;
        }
        List<ConsumerRecord<String, byte[]>> upTo = run.subList(0, last + 1);
        apply(upTo, Newest.upToHeader(keys(upTo), decode(upTo), summaries.assembly(cluster)), last);
        if (last + 1 < run.size()) {
            waiting.put(tp, new ArrayList<>(run.subList(last + 1, run.size())));
        }
    }

    /** The partition's topic is gone: what waited for it is dropped. */
    void forget(TopicPartition tp) {
        waiting.remove(tp);
    }

    /** How many records wait for a header (for tests). */
    int waiting(TopicPartition tp) {
        return waiting.getOrDefault(tp, List.of()).size();
    }

    private void apply(List<ConsumerRecord<String, byte[]>> run, List<Newest.Planned> plan, int last) {
        for (Newest.Planned p : plan) {
            handler.handle(run.get(p.index()), p.read(), p.index() == last);
        }
    }

    private IntFunction<Records.Read> decode(List<ConsumerRecord<String, byte[]>> run) {
        return i -> {
            ConsumerRecord<String, byte[]> r = run.get(i);
            return records.read(r.topic(), r.key(), r.value());
        };
    }

    private static List<String> keys(List<ConsumerRecord<String, byte[]>> run) {
        List<String> keys = new ArrayList<>(run.size());
        run.forEach(r -> keys.add(r.key()));
        return keys;
    }

    /** The index of the last cluster header (key without '/') in one cluster topic's records; -1 if none. */
    private static int lastHeader(List<ConsumerRecord<String, byte[]>> records) {
        for (int i = records.size() - 1; i >= 0; i--) {
            if (Newest.headerKey(records.get(i).key())) {
                return i;
            }
        }
        return -1;
    }
}
