package dev.cartograph.agent.fence;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Member-side fencing (ADR 0005). The broker re-places the gangs of a cluster it has not heard from
 * for its failover timeout, if their last summary said they had not started; a gang that started on
 * the cut-off cluster meanwhile would then run twice. So an agent whose cluster summaries Kafka has
 * not acknowledged for {@link Settings#after()} — shorter than the broker's failover timeout —
 * deletes exactly the copies the broker would re-place: those whose last acknowledged summary said
 * not started, or that this agent never reported (when running gangs are re-placed too, every copy).
 * Each copy once per contact lost. Pure: the caller reads the cluster and carries out the deletes.
 * Thread-safe.
 */
public final class SelfFence {

    /**
     * @param after   how long without an acknowledged cluster summary before fencing; empty: never fence
     *                (a cut-off cluster may then run a re-placed gang twice)
     * @param running fence started copies too (set it when the broker re-places running gangs)
     */
    public record Settings(Optional<Duration> after, boolean running) {
        /** Four minutes: one under the broker's default failover timeout of five. */
        public static final Settings DEFAULT = new Settings(Optional.of(Duration.ofMinutes(4)), false);

        public static final Settings OFF = new Settings(Optional.empty(), false);

        public Settings {
            if (after.isPresent() && (after.get().isNegative() || after.get().isZero())) {
                throw new IllegalArgumentException("self-fence-after must be positive, was " + after.get());
            }
        }
    }

    /** A copy of a placement on this cluster, as the agent sees it now. */
    public record Copy(String placementId, long epoch) {}

    /** Why a copy is fenced, for the log and the copy's Event. */
    public record Verdict(Copy copy, String reason) {}

    private final Settings settings;
    private Instant lastDelivered;
    private final Map<String, Boolean> startedAsDelivered = new HashMap<>();
    private final Set<String> fenced = new HashSet<>();

    /** @param since when this agent started: it gets {@code after} from then to reach Kafka */
    public SelfFence(Settings settings, Instant since) {
        this.settings = settings;
        this.lastDelivered = since;
    }

    /** Kafka acknowledged a cluster summary made at {@code madeAt}: contact is back; fencing starts afresh. */
    public synchronized void delivered(Instant madeAt) {
        if (madeAt.isAfter(lastDelivered)) {
            lastDelivered = madeAt;
        }
        fenced.clear();
    }

    /** Kafka acknowledged a summary of a placed copy saying whether it had started. */
    public synchronized void delivered(String placementId, boolean started) {
        startedAsDelivered.put(placementId, started);
    }

    /** When Kafka last acknowledged a cluster summary (by the time the summary was made), or the start. */
    public synchronized Instant lastDelivered() {
        return lastDelivered;
    }

    /** Whether no cluster summary has been acknowledged for the fence time (always false when fencing is off). */
    public synchronized boolean silent(Instant now) {
        return settings.after().isPresent()
                && Duration.between(lastDelivered, now)
                                .compareTo(settings.after().get())
                        >= 0;
    }

    /**
     * The copies to delete now (each once until contact is back); empty while Kafka is in reach.
     *
     * @param copies every copy of a placement on this cluster now (what is not among them is forgotten)
     */
    public synchronized List<Verdict> due(Instant now, List<Copy> copies) {
        Set<String> present = new HashSet<>();
        copies.forEach(c -> present.add(c.placementId()));
        startedAsDelivered.keySet().retainAll(present);
        fenced.retainAll(present);
        if (settings.after().isEmpty()) {
            return List.of();
        }
        Duration silent = Duration.between(lastDelivered, now);
        if (silent.compareTo(settings.after().get()) < 0) {
            return List.of();
        }
        List<Verdict> out = new ArrayList<>();
        for (Copy c : copies) {
            Boolean started = startedAsDelivered.get(c.placementId());
            if ((started == null || !started || settings.running()) && fenced.add(c.placementId())) {
                String as = started == null
                        ? "never reported by this agent"
                        : started ? "reported started" : "reported not started";
                out.add(new Verdict(
                        c,
                        "self-fenced: no cluster summary reached Kafka for " + silent.toSeconds() + "s (limit "
                                + settings.after().get().toSeconds() + "s) and the copy was " + as
                                + ", so the broker re-places it elsewhere; deleted here so it never runs twice"));
            }
        }
        return out;
    }

    /** Deleting the copy failed: it is due again on the next call. */
    public synchronized void retry(String placementId) {
        fenced.remove(placementId);
    }

    /** Whether fencing has deleted anything since contact was lost (for health). */
    public synchronized boolean fencing() {
        return !fenced.isEmpty();
    }
}
