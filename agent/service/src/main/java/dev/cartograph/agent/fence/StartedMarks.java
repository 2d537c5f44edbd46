package dev.cartograph.agent.fence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.MetadataKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each copy's {@code cartograph.dev/started-reported} annotation saying what Kafka acknowledged of it
 * ({@link SelfFence#remark}), so that what the self-fence knows survives the agent's process. The publishing side
 * names the workloads Kafka acknowledged a summary of ({@link #acknowledged}, on the producer's thread); {@link #run}
 * (on its own thread, about once a second) reads each from the cache and writes what its mark lacks, one JSON merge
 * patch each, tried once per run. While the API server cannot be asked (429, 5xx, no answer) the rest waits, and runs
 * back off from one second to a minute; a refusal is logged and the copy left as it is. A mark written late only
 * widens the window in which a restarted, cut-off agent fences a copy the broker keeps; it never protects a copy
 * Kafka did not have as started. Thread-safe; {@link #run} on one thread at a time.
 */
public final class StartedMarks implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(StartedMarks.class);
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final SelfFence fence;
    private final Function<ClusterCache.Change.Workload, Optional<JsonNode>> copies;
    private final KubeApplier applier;
    private final Clock clock;
    private final Set<ClusterCache.Change.Workload> pending = ConcurrentHashMap.newKeySet();
    private int failures;
    private Instant notBefore = Instant.MIN;

    /** @param copies the cached object a workload key names (the cache may lag a write; the next acknowledgement catches up) */
    public StartedMarks(
            SelfFence fence,
            Function<ClusterCache.Change.Workload, Optional<JsonNode>> copies,
            KubeApplier applier,
            Clock clock) {
        this.fence = fence;
        this.copies = copies;
        this.applier = applier;
        this.clock = clock;
    }

    /** Kafka acknowledged a summary of this workload (after {@link SelfFence#delivered}): its mark is looked at next run. */
    public void acknowledged(ClusterCache.Change.Workload workload) {
        pending.add(workload);
    }

    @Override
    public void run() {
        Instant now = clock.instant();
        if (now.isBefore(notBefore)) {
            return;
        }
        try {
            for (ClusterCache.Change.Workload w : List.copyOf(pending)) {
                pending.remove(w); // an acknowledgement from now on adds it again
                if (!mark(w)) {
                    pending.add(w);
                    failures++;
                    notBefore = now.plus(backoff(failures));
                    return;
                }
            }
            failures = 0;
        } catch (RuntimeException e) {
            LOG.warn("marking copies Kafka has as started failed, trying again: {}", e.toString());
        }
    }

    /** Whether {@code w} needs nothing more: marked, nothing to mark, or refused for good. */
    private boolean mark(ClusterCache.Change.Workload w) {
        Optional<JsonNode> object = copies.apply(w);
        Optional<SelfFence.Remark> remark = object.flatMap(SelfFence.Copy::of).flatMap(fence::remark);
        if (remark.isEmpty()) {
            return true;
        }
        SelfFence.Copy copy = remark.get().copy();
        String what = w.kind().kind() + " " + w.namespace() + "/" + w.name() + " (placement " + copy.placementId()
                + " epoch " + copy.epoch() + ")";
        KubeApplier.Outcome outcome = applier.annotate(
                object.get(),
                MetadataKeys.STARTED_REPORTED_ANNOTATION,
                remark.get().startedReported().map(String::valueOf));
        if (outcome.outcome() == CommandResult.Outcome.RETRY) {
            LOG.warn(
                    "{} not marked as reported {} for now ({}); trying again",
                    what,
                    started(remark.get()),
                    outcome.reason());
            return false;
        }
        if (outcome.outcome() == CommandResult.Outcome.FAILED) {
            LOG.warn(
                    "{} not marked as reported {}: {}; an agent restarted while cut off from Kafka judges it without"
                            + " the mark",
                    what,
                    started(remark.get()),
                    outcome.reason());
        } else {
            LOG.debug("{} marked as reported {}", what, started(remark.get()));
        }
        return true;
    }

    private static String started(SelfFence.Remark r) {
        return r.startedReported().isPresent() ? "started" : "not started";
    }

    private static Duration backoff(int failures) {
        Duration d = FIRST_BACKOFF.multipliedBy(1L << Math.min(failures - 1, 10));
        return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
    }
}
