package dev.cartograph.broker.kafka;

import dev.cartograph.protocol.ClusterAssembly;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads cluster topics into their summaries, on the decoding thread. A cluster's summary is taken only at a
 * header, so the records read after a partition's last header wait, undecoded, for the next one; and while the
 * consumer already holds more of a partition than it handed over (catching up), all of it waits for the rest.
 * Every run up to a header is then decoded at once, newest record per key ({@link Newest}), however the polls cut
 * the topic: catching up on a topic decodes each node about once. At most {@value #MAX_WAITING} records of a
 * partition wait (past that, they are read at once), and none waits past {@link #flush()} (before the
 * coordinator is told everything up to some offsets was read). Not thread-safe: the decoding thread.
 */
final class ClusterReader {
    /** Records of one partition that may wait, undecoded. */
    static final int MAX_WAITING = 20_000;

    /** Takes one record as read: a part of a summary, or poison; {@code lastHeader}: the run's last header. */
    interface Handler {
        void handle(ConsumerRecord<String, byte[]> r, Records.Read read, boolean lastHeader);
    }

    private record Waiting(String cluster, List<ConsumerRecord<String, byte[]>> records) {}

    private final Records records;
    private final Function<String, ClusterAssembly> assemblies;
    private final Handler handler;
    private final Map<TopicPartition, Waiting> waiting = new HashMap<>();

    /** @param assemblies each cluster's assembly, asked what it holds (the handler changes it) */
    ClusterReader(Records records, Function<String, ClusterAssembly> assemblies, Handler handler) {
        this.records = records;
        this.assemblies = assemblies;
        this.handler = handler;
    }

    /**
     * Takes one poll's records of {@code cluster}'s cluster topic partition {@code tp}, in order; {@code more}: the
     * consumer already has more of this partition (they wait for it).
     */
    void read(TopicPartition tp, String cluster, List<ConsumerRecord<String, byte[]>> polled, boolean more) {
        Waiting w = waiting.computeIfAbsent(tp, k -> new Waiting(cluster, new ArrayList<>()));
        w.records().addAll(polled);
        if (!more || w.records().size() > MAX_WAITING) {
            take(tp, w);
        }
    }

    /** Reads what waits for the partitions not in {@code behind} (those the consumer has read to their end). */
    void settle(Set<TopicPartition> behind) {
        List.copyOf(waiting.keySet()).stream()
                .filter(tp -> !behind.contains(tp))
                .forEach(tp -> take(tp, waiting.get(tp)));
    }

    /** Reads every partition's records up to its last header (those after it wait for the next). */
    void flush() {
        List.copyOf(waiting.keySet()).forEach(tp -> take(tp, waiting.get(tp)));
    }

    /** The partition's topic is gone: what waited for it is dropped. */
    void forget(TopicPartition tp) {
        waiting.remove(tp);
    }

    /** How many records of {@code tp} wait (for tests). */
    int waiting(TopicPartition tp) {
        Waiting w = waiting.get(tp);
        return w == null ? 0 : w.records().size();
    }

    /** Reads what waits up to its last header; without one, all of it once more than {@value #MAX_WAITING} wait. */
    private void take(TopicPartition tp, Waiting w) {
        List<ConsumerRecord<String, byte[]>> run = w.records();
        int last = lastHeader(run);
        if (last < 0) {
            if (run.size() > MAX_WAITING) {
                waiting.remove(tp);
                apply(run, Newest.withoutHeader(keys(run), decode(run), assemblies.apply(w.cluster())), -1);
            }
            return;
        }
        List<ConsumerRecord<String, byte[]>> upTo = run.subList(0, last + 1);
        apply(upTo, Newest.upToHeader(keys(upTo), decode(upTo), assemblies.apply(w.cluster())), last);
        if (last + 1 < run.size()) {
            waiting.put(tp, new Waiting(w.cluster(), new ArrayList<>(run.subList(last + 1, run.size()))));
        } else {
            waiting.remove(tp);
        }
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
