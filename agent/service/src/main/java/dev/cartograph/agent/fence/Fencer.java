package dev.cartograph.agent.fence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.protocol.CommandResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out {@link SelfFence}'s verdicts: reads the placed copies on the cluster, deletes the ones
 * due. Run it on its own thread, about once a second (a producer blocked on an unreachable Kafka must
 * not hold it up).
 * Each run is independent; a failed delete is tried again on the next. Runs on one thread at a time.
 */
public final class Fencer implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Fencer.class);
    private final SelfFence fence;
    private final Supplier<List<JsonNode>> workloads;
    private final KubeApplier applier;
    private final Clock clock;
    private long runs;

    public Fencer(SelfFence fence, Supplier<List<JsonNode>> workloads, KubeApplier applier, Clock clock) {
        this.fence = fence;
        this.workloads = workloads;
        this.applier = applier;
        this.clock = clock;
    }

    @Override
    public void run() {
        // the cluster is read only when fencing is due, and once a minute to forget copies that are gone
        if (!fence.silent(clock.instant()) && ++runs % 60 != 0) {
            return;
        }
        try {
            Map<String, JsonNode> byPlacement = new HashMap<>();
            List<SelfFence.Copy> copies = new ArrayList<>();
            for (JsonNode o : workloads.get()) {
                Optional<SelfFence.Copy> copy = SelfFence.Copy.of(o);
                if (copy.isPresent() && byPlacement.putIfAbsent(copy.get().placementId(), o) == null) {
                    copies.add(copy.get());
                }
            }
            for (SelfFence.Verdict v : fence.due(clock.instant(), copies)) {
                carryOut(v, byPlacement.get(v.copy().placementId()));
            }
        } catch (RuntimeException e) {
            LOG.warn("self-fencing check failed, trying again: {}", e.toString());
        }
    }

    private void carryOut(SelfFence.Verdict v, JsonNode copy) {
        String what = copy.path("kind").asText() + " "
                + copy.path("metadata").path("namespace").asText() + "/"
                + copy.path("metadata").path("name").asText() + " (placement "
                + v.copy().placementId() + " epoch " + v.copy().epoch() + ")";
        try {
            KubeApplier.Outcome outcome = applier.carryOut(new ApplyPolicy.Decision.Delete(copy));
            if (outcome.outcome() == CommandResult.Outcome.DELETED) {
                LOG.warn("{}: {}", what, v.reason());
                return;
            }
            LOG.warn("fencing {} failed ({}: {}); trying again", what, outcome.outcome(), outcome.reason());
        } catch (RuntimeException e) {
            LOG.warn("fencing {} failed ({}); trying again", what, e.toString());
        }
        fence.retry(v.copy().placementId());
    }
}
