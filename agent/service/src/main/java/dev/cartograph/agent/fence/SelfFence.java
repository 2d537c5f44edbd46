package dev.cartograph.agent.fence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.Ownership;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 *
 * <p>What Kafka acknowledged is kept per copy and epoch: a summary of an older epoch says nothing of a copy
 * re-applied since. It lives in this process, and on the member: once Kafka has a summary saying a copy started,
 * {@link #remark} asks for the copy's {@code cartograph.dev/started-reported} annotation to say so at its epoch
 * ({@link StartedMarks} writes it), and a copy listed with that mark at its own epoch counts as reported started
 * when this process has had no acknowledgement of it — so an agent restarted while Kafka is out of reach keeps the
 * running gangs the broker keeps. An acknowledgement in this process, either way, wins over the mark.
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

    /**
     * A copy of a placement on this cluster, as the agent sees it now.
     *
     * @param startedReported the epoch its {@code cartograph.dev/started-reported} annotation names, if any
     */
    public record Copy(String placementId, long epoch, Optional<Long> startedReported) {
        public Copy {
            Objects.requireNonNull(placementId, "placementId");
            Objects.requireNonNull(startedReported, "startedReported");
        }

        /** A copy without the started-reported mark. */
        public Copy(String placementId, long epoch) {
            this(placementId, epoch, Optional.empty());
        }

        /** The copy {@code object} is, with its mark; empty when it is not a placed copy ({@link Ownership}). */
        public static Optional<Copy> of(JsonNode object) {
            return Ownership.placementId(object)
                    .map(id -> new Copy(id, Ownership.epoch(object).orElse(0L), Ownership.startedReported(object)));
        }

        /** Whether its mark says Kafka had it as started at the epoch it has now. */
        boolean markedStarted() {
            return startedReported.equals(Optional.of(epoch));
        }
    }

    /** What a copy's started-reported annotation should say from now on: the epoch, or nothing (removed). */
    public record Remark(Copy copy, Optional<Long> startedReported) {}

    /** Why a copy is fenced, for the log and the copy's Event. */
    public record Verdict(Copy copy, String reason) {}

    private final Settings settings;
    private Instant lastDelivered;
    /** What Kafka acknowledged last of each copy, at the epoch the copy had then. */
    private record Acknowledged(long epoch, boolean started) {}

    private final Map<String, Acknowledged> acknowledged = new HashMap<>();
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

    /** Kafka acknowledged a summary of a placed copy, made at {@code epoch}, saying whether it had started. */
    public synchronized void delivered(String placementId, long epoch, boolean started) {
        acknowledged.put(placementId, new Acknowledged(epoch, started));
    }

    /**
     * What the copy's started-reported annotation should say, when it does not say it yet: its epoch once Kafka
     * acknowledged a summary of it at that epoch saying started, nothing once one said not started. Empty while this
     * process has no acknowledgement of the copy at its epoch (the mark is left as an earlier process wrote it).
     */
    public synchronized Optional<Remark> remark(Copy c) {
        Acknowledged a = acknowledged.get(c.placementId());
        if (a == null || a.epoch() != c.epoch()) {
            return Optional.empty();
        }
        Optional<Long> wanted = a.started() ? Optional.of(c.epoch()) : Optional.empty();
        return wanted.equals(c.startedReported()) ? Optional.empty() : Optional.of(new Remark(c, wanted));
    }

    /**
     * Whether the broker was last told the copy had started, as far as this agent knows: what Kafka acknowledged in
     * this process at the copy's epoch, else the copy's mark; null when neither says.
     */
    private Boolean reportedStarted(Copy c) {
        Acknowledged a = acknowledged.get(c.placementId());
        if (a != null && a.epoch() == c.epoch()) {
            return a.started();
        }
        return c.markedStarted() ? Boolean.TRUE : null;
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
        acknowledged.keySet().retainAll(present);
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
            Boolean started = reportedStarted(c);
            if ((started == null || !started || settings.running()) && fenced.add(c.placementId())) {
                String as = started == null
                        ? "not reported at epoch " + c.epoch() + " by this agent nor marked as reported started"
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
