package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.kafka.Records.Read;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterAssembly;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reading only the newest record of each key ({@link Newest}) against reading every record in order, on random
 * cluster topics: nodes and placements changing, tombstones, records that cannot be read or claim another
 * cluster, headers of several stamps (restarts, resyncs) with sequences and heartbeats that sometimes go back,
 * cut into runs ending at a header as polls cut them. After every run both readers take the same summary (header,
 * nodes, placements, doubt); the changed nodes named are never fewer than what really changed, never more than
 * reading everything names; poison is never counted more often.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NewestTest {
    static final String TOPIC = "cartograph.from.gpu-a.cluster";
    static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
    static final Stamp[] STAMPS = {new Stamp("i-1", 0), new Stamp("i-1", 1), new Stamp("i-2", 0)};

    final Records records = new Records(new Topics("cartograph"));

    record Written(String key, byte[] value) {}

    /** One reader: an assembly, the summaries it took, the poison it counted. */
    static final class Reader {
        final ClusterAssembly assembly = new ClusterAssembly("gpu-a");
        final List<Optional<ClusterAssembly.Summary>> taken = new ArrayList<>();
        int poison;

        /** As Ingest does it: a part into the assembly, poison counted (the summary is taken after the run). */
        void handle(Read read) {
            if (read instanceof Read.Part p) {
                if (assembly.apply(p.record()) instanceof ClusterAssembly.Step.Refused) {
                    poison++;
                }
            } else if (read instanceof Read.Poison p) {
                p.unreadable().ifPresent(u -> assembly.unreadable(u.key()));
                poison++;
            }
        }
    }

    @Test
    void readingTheNewestRecordPerKeyTakesTheSameSummariesAsReadingEveryRecord() {
        int collapsed = 0;
        for (long seed = 0; seed < 600; seed++) {
            collapsed += compare(new Random(seed), seed);
        }
        // the rule must actually skip records in most tries, or the comparison proves nothing
        assertThat(collapsed).isGreaterThan(200);
    }

    /** Returns 1 when the newest-per-key reader decoded fewer records than there were. */
    private int compare(Random r, long seed) {
        List<Written> topic = topic(r);
        Reader all = new Reader();
        Reader newest = new Reader();
        Map<Integer, NodeState> before = Map.of();
        int from = 0;
        AtomicInteger decoded = new AtomicInteger();
        while (from < topic.size()) {
            int to = nextRunEnd(r, topic, from);
            List<Written> run = topic.subList(from, to);
            List<String> keys = run.stream().map(Written::key).toList();
            boolean header = Newest.headerKey(keys.get(keys.size() - 1));
            for (int i = 0; i < run.size(); i++) {
                all.handle(read(run.get(i)));
            }
            var plan = header
                    ? Newest.upToHeader(keys, i -> counted(decoded, run.get(i)), newest.assembly)
                    : Newest.withoutHeader(keys, i -> counted(decoded, run.get(i)), newest.assembly);
            assertThat(plan).extracting(Newest.Planned::index).isSorted();
            plan.forEach(p -> newest.handle(p.read()));
            if (header) {
                Optional<ClusterAssembly.Summary> a = all.assembly.take();
                Optional<ClusterAssembly.Summary> n = newest.assembly.take();
                String where = "seed " + seed + ", run " + from + ".." + to;
                assertThat(n.map(ClusterAssembly.Summary::summary))
                        .as(where)
                        .isEqualTo(a.map(ClusterAssembly.Summary::summary));
                assertThat(n.flatMap(ClusterAssembly.Summary::doubt))
                        .as(where)
                        .isEqualTo(a.flatMap(ClusterAssembly.Summary::doubt));
                if (a.isPresent()) {
                    Optional<Set<String>> changedAll = a.get().changedNodes();
                    Optional<Set<String>> changedNewest = n.get().changedNodes();
                    assertThat(changedNewest.isPresent()).as(where).isEqualTo(changedAll.isPresent());
                    if (changedAll.isPresent()) {
                        assertThat(changedAll.get()).as(where).containsAll(changedNewest.get());
                        assertThat(changedNewest.get()).as(where).containsAll(diff(before, a.get()));
                    }
                    before = byNumber(a.get());
                }
            }
            from = to;
        }
        assertThat(newest.poison).as("seed " + seed).isLessThanOrEqualTo(all.poison);
        return decoded.get() < topic.size() ? 1 : 0;
    }

    private Read read(Written w) {
        return records.read(TOPIC, w.key(), w.value());
    }

    private Read counted(AtomicInteger decoded, Written w) {
        decoded.incrementAndGet();
        return read(w);
    }

    /** Runs end at a header (as a poll's last header ends what is read together), the topic's tail at its end. */
    private static int nextRunEnd(Random r, List<Written> topic, int from) {
        List<Integer> headers = new ArrayList<>();
        for (int i = from; i < topic.size(); i++) {
            if (Newest.headerKey(topic.get(i).key())) {
                headers.add(i + 1);
            }
        }
        return headers.isEmpty() ? topic.size() : headers.get(r.nextInt(Math.min(headers.size(), 4)));
    }

    /** A random cluster topic: rounds of node and placement records, each ended by a header (mostly well-behaved). */
    private static List<Written> topic(Random r) {
        List<Written> out = new ArrayList<>();
        int rounds = 1 + r.nextInt(8);
        long sequence = 1;
        int stamp = 0;
        for (int round = 0; round < rounds; round++) {
            if (r.nextInt(6) == 0) {
                stamp = r.nextInt(STAMPS.length);
            }
            int records = r.nextInt(12);
            for (int i = 0; i < records; i++) {
                // now and then a record of another stamp than the round's (a zombie agent)
                Stamp s = STAMPS[r.nextInt(10) == 0 ? r.nextInt(STAMPS.length) : stamp];
                out.add(record(r, s));
            }
            sequence = r.nextInt(8) == 0 ? Math.max(1, sequence - r.nextInt(3)) : sequence + 1;
            Stamp s = STAMPS[stamp];
            Instant heartbeat = T0.plusSeconds(r.nextInt(5) == 0 ? r.nextInt(20) : 2 * sequence);
            String claimed = r.nextInt(25) == 0 ? "gpu-b" : "gpu-a";
            out.add(new Written(
                    "gpu-a",
                    Wire.encode(new ClusterRecord.Header(
                            claimed, Map.of(), "0.1.0", s, sequence, heartbeat, r.nextInt(5), r.nextInt(3)))));
        }
        for (int i = r.nextInt(4); i > 0; i--) {
            out.add(record(r, STAMPS[stamp])); // a tail no header completes yet
        }
        return out;
    }

    private static Written record(Random r, Stamp s) {
        int pick = r.nextInt(20);
        String node = "n" + r.nextInt(5);
        String placement = "p" + r.nextInt(3);
        if (pick < 11) {
            return new Written(
                    "node/" + node, Wire.encode(new ClusterRecord.Node("gpu-a", s, node(node, r.nextInt(3)))));
        } else if (pick < 13) {
            return new Written("node/" + node, null);
        } else if (pick < 15) {
            PlacementReport p = new PlacementReport(placement, 1 + r.nextInt(2), r.nextInt(2), ResourceList.EMPTY);
            return new Written("placement/" + placement, Wire.encode(new ClusterRecord.Placed("gpu-a", s, p)));
        } else if (pick < 16) {
            return new Written("placement/" + placement, null);
        } else if (pick < 17) {
            return new Written("node/" + node, "{not json".getBytes(StandardCharsets.UTF_8));
        } else if (pick < 18) {
            return new Written("node/" + node, Wire.encode(new ClusterRecord.Node("gpu-b", s, node(node, 1))));
        } else if (pick < 19) {
            return new Written("weird/" + node, Wire.encode(new ClusterRecord.Node("gpu-a", s, node(node, 1))));
        }
        return new Written(null, "{}".getBytes(StandardCharsets.UTF_8));
    }

    static NodeState node(String name, int used) {
        return new NodeState(
                name,
                Map.of("kubernetes.io/hostname", name),
                List.of(),
                true,
                true,
                new ResourceList(Map.of("nvidia.com/gpu", BigDecimal.valueOf(8))),
                used == 0 ? ResourceList.EMPTY : new ResourceList(Map.of("nvidia.com/gpu", BigDecimal.valueOf(used))));
    }

    private static Map<Integer, NodeState> byNumber(ClusterAssembly.Summary s) {
        Map<Integer, NodeState> out = new java.util.HashMap<>();
        s.summary().nodes().forEach(n -> out.put(Integer.parseInt(n.name().substring(1)), n));
        return out;
    }

    /** The nodes whose state differs between two summaries (added, changed, removed). */
    private static Set<String> diff(Map<Integer, NodeState> before, ClusterAssembly.Summary after) {
        Map<Integer, NodeState> now = byNumber(after);
        Set<String> out = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            if (!Objects.equals(before.get(i), now.get(i))) {
                out.add("n" + i);
            }
        }
        return out;
    }
}
