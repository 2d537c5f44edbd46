package dev.cartograph.local.fault.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The invariants of docs/reliability.md, checked over a whole {@link History} at every recorded instant, not only at
 * the end. Pure: the same history gives the same violations, so a failed run is checked again from its file.
 *
 * <ul>
 *   <li><b>I1</b> no node of a member holds more GPUs in bound, unfinished pods than it has;
 *   <li><b>I2</b> no placement runs on two clusters in one sample (the suite never fails a cluster over, so the bound
 *       the docs allow is none);
 *   <li><b>I3</b> no copy that ran is deleted (gone, or made again under a new uid) unless its user deleted the gang
 *       first — the suite configures neither preemption nor failover;
 *   <li><b>I4</b> a placement's epochs never fall, and it never changes cluster without a higher epoch;
 *   <li><b>I5</b> every command follows a committed placement record of its placement at its epoch (on its cluster,
 *       for an apply); a fencing delete (epoch ∞) decides nothing and needs none.
 * </ul>
 * I6 — the state after the faults heal — is the suite's {@code Verdict}.
 */
public final class Checker {
    private Checker() {}

    public static List<Violation> check(History h) {
        List<Violation> out = new ArrayList<>();
        nodes(h, out);
        twice(h, out);
        deletedRunning(h, out);
        epochs(h, out);
        commands(h, out);
        out.sort(Comparator.comparingLong(Violation::at).thenComparing(Violation::invariant));
        return out;
    }

    /** I1, once per node for each stretch of samples it is over. */
    private static void nodes(History h, List<Violation> out) {
        Set<String> over = new HashSet<>();
        for (Sample s : h.samples()) {
            s.clusters()
                    .forEach((cluster, m) -> m.nodes().forEach((node, n) -> {
                        String key = cluster + "/" + node;
                        if (n.used() > n.gpus()) {
                            if (over.add(key)) {
                                out.add(new Violation(
                                        "I1",
                                        s.at(),
                                        key + ": pods bound there ask for " + n.used() + " GPUs; it has " + n.gpus()));
                            }
                        } else {
                            over.remove(key);
                        }
                    }));
        }
    }

    /** I2, once per placement. */
    private static void twice(History h, List<Violation> out) {
        Set<String> seen = new HashSet<>();
        for (Sample s : h.samples()) {
            Map<String, Set<String>> where = new TreeMap<>();
            s.clusters()
                    .forEach((cluster, m) -> m.copies().values().stream()
                            .filter(Sample.Copy::running)
                            .forEach(c -> where.computeIfAbsent(c.placementId(), k -> new TreeSet<>())
                                    .add(cluster)));
            where.forEach((placement, clusters) -> {
                if (clusters.size() > 1 && seen.add(placement)) {
                    out.add(new Violation("I2", s.at(), placement + " runs on " + clusters));
                }
            });
        }
    }

    /** What I3 remembers of one copy: its uid, and whether it was ever seen running. */
    private record Tracked(String uid, boolean ran) {}

    /** I3. */
    private static void deletedRunning(History h, List<Violation> out) {
        Map<String, Tracked> tracked = new HashMap<>(); // cluster/placement → the copy last seen there
        for (Sample s : h.samples()) {
            s.clusters().forEach((cluster, m) -> {
                for (var e : new ArrayList<>(tracked.entrySet())) {
                    String key = e.getKey();
                    if (!key.startsWith(cluster + "/")) {
                        continue;
                    }
                    String placement = key.substring(cluster.length() + 1);
                    Sample.Copy now = m.copies().get(placement);
                    Tracked before = e.getValue();
                    if (now != null && now.uid().equals(before.uid())) {
                        continue;
                    }
                    tracked.remove(key);
                    Long deleted = h.deletedAt().get(placement);
                    if (before.ran() && (deleted == null || deleted > s.at())) {
                        out.add(new Violation(
                                "I3",
                                s.at(),
                                "the copy of " + placement + " on " + cluster + " ran and is "
                                        + (now == null ? "gone" : "made again (uid " + now.uid() + ")")
                                        + ", though its user had not deleted it"));
                    }
                }
                m.copies()
                        .forEach((placement, c) -> tracked.merge(
                                cluster + "/" + placement,
                                new Tracked(c.uid(), c.running()),
                                (a, b) -> new Tracked(a.uid(), a.ran() || b.ran())));
            });
        }
    }

    /** I4. */
    private static void epochs(History h, List<Violation> out) {
        Map<String, Durable> last = new HashMap<>();
        h.durable().stream().sorted(Comparator.comparingLong(Durable::offset)).forEach(d -> {
            if (d.tombstone()) {
                last.remove(d.uid());
                return;
            }
            Durable before = last.put(d.uid(), d);
            if (before == null) {
                return;
            }
            if (d.epoch() < before.epoch()) {
                out.add(new Violation("I4", d.at(), d.uid() + ": epoch " + before.epoch() + " then " + d.epoch()));
            } else if (d.epoch() == before.epoch()
                    && !before.cluster().isEmpty()
                    && !d.cluster().isEmpty()
                    && !d.cluster().equals(before.cluster())) {
                out.add(new Violation(
                        "I4",
                        d.at(),
                        d.uid() + ": moved from " + before.cluster() + " to " + d.cluster() + " at epoch "
                                + d.epoch()));
            }
        });
    }

    /** I5. */
    private static void commands(History h, List<Violation> out) {
        Map<String, List<Durable>> byUid = new HashMap<>();
        h.durable().stream()
                .filter(d -> !d.tombstone())
                .forEach(d ->
                        byUid.computeIfAbsent(d.uid(), k -> new ArrayList<>()).add(d));
        for (Sent c : h.sent()) {
            if (c.epoch() == Sent.FENCE) {
                continue;
            }
            boolean decided = byUid.getOrDefault(c.uid(), List.of()).stream()
                    .anyMatch(d -> d.epoch() == c.epoch()
                            && d.at() <= c.at()
                            && (!c.kind().equals("Apply") || d.cluster().equals(c.cluster())));
            if (!decided) {
                out.add(new Violation(
                        "I5",
                        c.at(),
                        c.kind() + " of " + c.uid() + " to " + c.cluster() + " at epoch " + c.epoch()
                                + " follows no committed record of it at that epoch"
                                + (c.kind().equals("Apply") ? " on that cluster" : "")));
            }
        }
    }
}
