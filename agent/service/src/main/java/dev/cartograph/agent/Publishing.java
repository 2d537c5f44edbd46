package dev.cartograph.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.agent.fence.StartedMarks;
import dev.cartograph.agent.kafka.Publisher;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.report.Owners;
import dev.cartograph.agent.report.Reporter;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.ClusterDeltas;
import dev.cartograph.protocol.UnwatchedKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One publishing round, run at a fixed delay on the agent's publishing thread: when capacity changed or a
 * heartbeat is due, the cluster records that changed and the cluster header ({@link ClusterDeltas}: only
 * changed nodes and placements, everything again after a record may have been lost), a record per changed
 * workload (a tombstone for one that is gone), then a flush. Kafka's acknowledgements feed the self-fence, and the marks that carry what it knows past a restart
 * ({@link StartedMarks}). A round that fails is logged and the next one
 * tries again. Runs on one thread at a time.
 */
final class Publishing implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Publishing.class);

    private final ClusterCache cache;
    private final PendingChanges changes;
    private final Supplier<Interpreter> interpreter;
    private final Reporter reporter;
    private final Publisher publisher;
    private final SelfFence fence;
    private final StartedMarks marks;
    private final BooleanSupplier serving;
    private final Duration heartbeat;
    private final Clock clock;
    private final AgentObserver observer;
    private final ClusterDeltas deltas = new ClusterDeltas();
    private Instant lastClusterRecord = Instant.EPOCH;

    /**
     * @param interpreter the interpreter of the definitions in force (they follow the cluster's Karta objects)
     * @param serving whether the agent still reads commands: one that does not sends no heartbeat, so the
     *                broker sees this cluster go quiet, not Ready
     */
    Publishing(
            ClusterCache cache,
            PendingChanges changes,
            Supplier<Interpreter> interpreter,
            Reporter reporter,
            Publisher publisher,
            SelfFence fence,
            StartedMarks marks,
            BooleanSupplier serving,
            Duration heartbeat,
            Clock clock,
            AgentObserver observer) {
        this.observer = observer;
        this.cache = cache;
        this.changes = changes;
        this.interpreter = interpreter;
        this.reporter = reporter;
        this.publisher = publisher;
        this.fence = fence;
        this.marks = marks;
        this.serving = serving;
        this.heartbeat = heartbeat;
        this.clock = clock;
    }

    @Override
    public void run() {
        try {
            publish();
        } catch (RuntimeException e) {
            LOG.warn("publishing failed, will retry next interval: {}", e.toString());
        }
    }

    private void publish() {
        Instant now = clock.instant();
        boolean heartbeatDue = Duration.between(lastClusterRecord, now).compareTo(heartbeat) >= 0;
        boolean lost = publisher.takeClusterLost();
        if (lost) {
            deltas.lost();
        }
        if (serving.getAsBoolean() && (changes.takeCapacity() | heartbeatDue | lost)) {
            List<JsonNode> workloads = cache.workloads();
            List<JsonNode> pods = cache.pods();
            List<JsonNode> placed = workloads.stream()
                    .filter(o -> Ownership.placementId(o).isPresent())
                    .toList();
            Owners owners = Owners.of(workloads, pods);
            List<UnwatchedKind> unwatched = cache.unwatched().entrySet().stream()
                    .map(e -> new UnwatchedKind(
                            e.getKey().apiVersion(), e.getKey().kind(), e.getValue()))
                    .toList();
            publisher.cluster(
                    deltas.next(reporter.cluster(
                            interpreter.get(), cache.nodes(), pods, placed, owners::podsOf, unwatched, now)),
                    () -> {
                        fence.delivered(now);
                        observer.summaryPublished();
                    });
            lastClusterRecord = now;
        }
        for (ClusterCache.Change.Workload w : changes.takeWorkloads()) {
            Optional<JsonNode> object = cache.workload(w.kind(), w.namespace(), w.name());
            if (object.isPresent()) {
                long epoch = Ownership.epoch(object.get()).orElse(0L);
                reporter.workload(interpreter.get(), object.get(), now)
                        .ifPresent(s -> publisher.workload(
                                s,
                                () -> s.placementId().ifPresent(id -> {
                                    fence.delivered(id, epoch, s.started());
                                    marks.acknowledged(w);
                                })));
            } else if (cache.watches(w.kind())) {
                publisher.workloadDeleted(reporter.key(tombstoneOf(w)), () -> {});
            } // else its informer stopped: not known to be gone (a new informer announces what is there)
        }
        publisher.flush();
    }

    private static JsonNode tombstoneOf(ClusterCache.Change.Workload w) {
        var o = Documents.json()
                .createObjectNode()
                .put("apiVersion", w.kind().apiVersion())
                .put("kind", w.kind().kind());
        o.putObject("metadata").put("namespace", w.namespace()).put("name", w.name());
        return o;
    }
}
