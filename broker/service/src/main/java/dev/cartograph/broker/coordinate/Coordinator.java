package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.fleet.Reservation;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Problem;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.Demands;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.PodDemand;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's one writer. Every input (agent records, placement records, hub objects, the lease,
 * the clock) is queued and handled in order on one thread, which owns fleet state, placements and
 * the queue; after each batch it publishes an immutable {@link BrokerView}. Placement itself is the
 * pure {@link Planner}; Kafka and the hub are reached through {@link Outbox} and {@link Hub}.
 *
 * <p>Rules: a decision is durable (placements topic) before its command is sent; its demand is
 * reserved on the chosen nodes until the agent accounts for it; only an active instance (leader,
 * caught up with every topic) decides or writes; what fits nowhere waits, ordered by priority then
 * submission time, and is retried when capacity changes; a cluster lost past the failover timeout
 * has its not-yet-started gangs re-placed at a higher epoch and its copies fenced.
 */
public final class Coordinator implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
    public static final String PRIORITY_ANNOTATION = "cartograph.dev/priority";
    private static final Set<String> NOT_STARTED = Set.of("Undefined", "Initializing", "Pending", "");

    private final BrokerSettings settings;
    private Interpreter interpreter;
    private final Outbox outbox;
    private final Hub hub;
    private final Clock clock;
    private final PriorityClasses priorityClasses;
    private final BlockingQueue<Input> inbox = new LinkedBlockingQueue<>();
    private final AtomicReference<BrokerView> view = new AtomicReference<>(BrokerView.EMPTY);
    private final AtomicBoolean running = new AtomicBoolean(true);

    private final Fleet fleet = new Fleet();
    private final Map<String, PlacementRecord> placements = new HashMap<>();
    private final Map<String, JsonNode> hubObjects = new HashMap<>();
    private final Map<String, Decision> decisions = new HashMap<>();
    /** Every placed copy any agent reports, by its key; read in whatever order the topics interleave. */
    private final Map<dev.cartograph.protocol.WorkloadKey, WorkloadSummary> copies = new HashMap<>();
    private final Map<String, Long> forwardedGeneration = new HashMap<>();
    private final Map<String, String> mirroredStatus = new HashMap<>();
    private final Set<String> mirroredPhase = new HashSet<>();
    private final Map<String, Instant> lastApply = new HashMap<>();
    private final Map<String, Demand> demands = new HashMap<>();
    private final Set<String> fenced = new HashSet<>();
    private final Set<String> lostReported = new HashSet<>();
    private final Map<String, Boolean> readiness = new HashMap<>();
    private final Map<String, List<NodeState>> lastNodes = new HashMap<>();
    private long poison;
    private boolean leading;
    private boolean caughtUp;
    private Instant activeSince = Instant.MAX;
    private boolean capacityChanged;

    public Coordinator(BrokerSettings settings, Interpreter interpreter, Outbox outbox, Hub hub, Clock clock) {
        this(settings, interpreter, outbox, hub, clock, PriorityClasses.NONE);
    }

    /** @param priorityClasses the hub's PriorityClasses (name → value), for workloads that name one */
    public Coordinator(BrokerSettings settings, Interpreter interpreter, Outbox outbox, Hub hub, Clock clock,
                       PriorityClasses priorityClasses) {
        this.priorityClasses = priorityClasses;
        this.settings = settings;
        this.interpreter = interpreter;
        this.outbox = outbox;
        this.hub = hub;
        this.clock = clock;
        this.leading = !settings.leaderElection();
    }

    public void post(Input input) {
        inbox.add(input);
    }

    public BrokerView view() {
        return view.get();
    }

    /** Counts a record that could not be decoded (the ingest skips it). */
    public void poisonRecord() {
        post(new Input.Call(() -> poison++));
    }

    @Override
    public void run() {
        List<Input> batch = new ArrayList<>();
        while (running.get()) {
            try {
                Input first = inbox.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                inbox.drainTo(batch, 500);
                step(batch);
                batch.clear();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Handles one batch in order, retries the queue if capacity changed, publishes the view (the loop's body; tests call it directly). */
    void step(List<Input> batch) {
        for (Input input : batch) {
            handleSafely(input);
        }
        if (capacityChanged && active()) {
            capacityChanged = false;
            retryQueue();
        }
        publish();
    }

    private void handleSafely(Input input) {
        try {
            handle(input);
        } catch (RuntimeException e) {
            LOG.error("could not handle {}: {}", input.getClass().getSimpleName(), e.toString(), e);
        }
    }

    private void handle(Input input) {
        if (input instanceof Input.Cluster c) {
            cluster(c.summary());
        } else if (input instanceof Input.Workload w) {
            workload(w);
        } else if (input instanceof Input.Result r) {
            result(r.result());
        } else if (input instanceof Input.Placement p) {
            replayed(p);
        } else if (input instanceof Input.CaughtUp) {
            caughtUp = true;
            LOG.info("caught up with every topic: {} placements, {} clusters", placements.size(), fleet.snapshot().clusters().size());
            becameActive();
        } else if (input instanceof Input.HubChanged h) {
            hubChanged(h.object());
        } else if (input instanceof Input.HubDeleted h) {
            hubDeleted(h.object());
        } else if (input instanceof Input.Leading l) {
            boolean was = leading;
            leading = l.leading();
            LOG.info(leading ? "leading" : "not leading");
            if (leading && !was) {
                becameActive();
            } else if (!leading) {
                activeSince = Instant.MAX;
            }
        } else if (input instanceof Input.Definitions d) {
            interpreter = Interpreter.of(d.definitions());
            LOG.info("definitions changed: {} kinds", d.definitions().size());
            capacityChanged = true; // queued gangs are interpreted again at their next attempt
        } else if (input instanceof Input.Tick) {
            tick();
        } else if (input instanceof Input.Call c) {
            c.action().run();
        }
    }

    private boolean active() {
        return leading && caughtUp;
    }

    /** Now leader and caught up: hold what recorded placements reserved, then act on every hub object. */
    private void becameActive() {
        if (!active()) {
            return;
        }
        activeSince = clock.instant();
        for (PlacementRecord p : placements.values()) {
            if ((p.state() == State.PLACED || p.state() == State.APPLIED) && p.cluster().isPresent() && !p.reserved().isEmpty()
                    && fleet.snapshot().reservations().get(p.uid()) == null) {
                fleet.hold(new Reservation(p.uid(), p.cluster().get(), p.epoch(), p.reserved()));
            }
        }
        for (WorkloadSummary s : List.copyOf(copies.values())) {
            copy(s, null); // summaries replayed before their placement records: match them up now
        }
        for (JsonNode object : List.copyOf(hubObjects.values())) {
            hubChanged(object);
        }
        capacityChanged = true;
    }

    // ---- agent records

    private void cluster(ClusterSummary s) {
        int reservationsBefore = fleet.snapshot().reservations().size();
        if (fleet.accept(s) == Fleet.Outcome.STALE) {
            return;
        }
        List<NodeState> before = lastNodes.put(s.cluster(), s.nodes());
        if (!s.nodes().equals(before) || fleet.snapshot().reservations().size() != reservationsBefore) {
            capacityChanged = true;
        }
    }

    private void workload(Input.Workload w) {
        if (w.summary().isEmpty()) {
            copies.remove(w.key());
            return;
        }
        WorkloadSummary s = w.summary().get();
        if (s.placementId().isEmpty()) {
            return;
        }
        WorkloadSummary previous = copies.put(w.key(), s);
        copy(s, previous != null && previous.placementId().equals(s.placementId()) ? previous : null);
    }

    /** A placed copy some agent reports: the placement's member (mirrored to the hub), or a stale copy to fence. */
    private void copy(WorkloadSummary s, WorkloadSummary previous) {
        String uid = s.placementId().orElseThrow();
        PlacementRecord p = placements.get(uid);
        if (p == null || p.cluster().isEmpty() || !p.cluster().get().equals(s.key().cluster())) {
            fence(uid, s.key().cluster(), p);
            return;
        }
        JsonNode object = hubObjects.get(uid);
        if (active() && object != null && !deleting(object)) {
            mirror(uid, object, s, previous);
        }
    }

    /**
     * Puts the member's status on the hub object and its phase in the phase label, when they differ
     * from what the hub object shows; an Event when this instance saw the phase change.
     */
    private void mirror(String uid, JsonNode object, WorkloadSummary s, WorkloadSummary previous) {
        String status = s.status().toString();
        if (!status.equals(mirroredStatus.get(uid)) && !s.status().isNull()) {
            mirroredStatus.put(uid, status);
            if (!s.status().equals(object.path("status"))) {
                hub.status(object, s.status());
            }
        }
        String shown = object.path("metadata").path("labels").path(Hub.PHASE_LABEL).asText("");
        if (!s.phase().equals(shown) && !mirroredPhase.contains(uid + "/" + s.phase())) {
            mirroredPhase.removeIf(k -> k.startsWith(uid + "/"));
            mirroredPhase.add(uid + "/" + s.phase()); // written once; the hub object's label shows it when the write lands
            hub.mark(object, Map.of(Hub.PHASE_LABEL, s.phase()), Map.of());
        }
        if (previous != null && !previous.phase().equals(s.phase())) {
            switch (s.phase()) {
                case "Running" -> hub.event(object, "Normal", "Running", "running on " + s.key().cluster() + " (" + s.pods() + " pods)");
                case "Completed" -> hub.event(object, "Normal", "Completed", "completed on " + s.key().cluster());
                case "Failed" -> hub.event(object, "Warning", "Failed", "failed on " + s.key().cluster());
                default -> {
                }
            }
        }
    }

    /** A copy of a placement on a cluster it is no longer placed on: delete it there, at the current epoch. */
    private void fence(String uid, String cluster, PlacementRecord p) {
        if (!active()) {
            return;
        }
        long epoch = p == null ? Long.MAX_VALUE : p.epoch();
        if (fenced.add(cluster + "/" + uid + "/" + epoch)) {
            LOG.info("fencing {} on {}: placed {} (epoch {})", uid, cluster, p == null ? "nowhere" : p.cluster().orElse("nowhere"), epoch);
            outbox.command(cluster, new Command.Delete(uid, epoch, clock.instant()));
        }
    }

    private void result(CommandResult r) {
        PlacementRecord p = placements.get(r.placementId());
        if (!active() || p == null || r.epoch() != p.epoch() || p.cluster().isEmpty() || !p.cluster().get().equals(r.cluster())) {
            return;
        }
        JsonNode object = hubObjects.get(p.uid());
        switch (r.outcome()) {
            case APPLIED -> {
                if (p.state() == State.PLACED) {
                    write(p.with(State.APPLIED, "", clock.instant()));
                    if (object != null) {
                        hub.event(object, "Normal", "Forwarded", "created on " + r.cluster() + " by its agent (epoch " + r.epoch() + ")");
                    }
                }
            }
            case REJECTED, FAILED -> {
                if (p.state() == State.PLACED || p.state() == State.APPLIED) {
                    String reason = r.cluster() + " refused it: " + r.reason();
                    fleet.release(p.uid());
                    capacityChanged = true;
                    write(p.with(State.FAILED, reason, clock.instant()));
                    if (object != null) {
                        hub.mark(object, Map.of(Hub.PHASE_LABEL, "Failed"), Map.of(Hub.REASON_ANNOTATION, reason));
                        hub.event(object, "Warning", "Failed", reason);
                    }
                }
            }
            case DELETED -> {
                if (p.state() == State.DELETING) {
                    finishDeletion(p, object);
                }
            }
            case STALE -> LOG.debug("{} says {} epoch {} is stale", r.cluster(), r.placementId(), r.epoch());
        }
    }

    private void replayed(Input.Placement p) {
        if (active()) {
            return; // this instance writes the topic; what it reads back is its own
        }
        if (p.record().isEmpty()) {
            placements.remove(p.uid());
        } else {
            placements.put(p.uid(), p.record().get());
        }
    }

    // ---- hub objects

    private void hubChanged(JsonNode object) {
        String uid = object.path("metadata").path("uid").asText("");
        if (uid.isEmpty()) {
            return;
        }
        hubObjects.put(uid, object);
        if (!active()) {
            return;
        }
        PlacementRecord p = placements.get(uid);
        if (deleting(object)) {
            delete(uid, object, p);
            return;
        }
        if (p == null) {
            submit(uid, object);
            return;
        }
        if ((p.state() == State.PLACED || p.state() == State.APPLIED) && p.cluster().isPresent()) {
            long generation = generation(object);
            Long forwarded = forwardedGeneration.get(uid);
            if (forwarded != null && forwarded != generation) {
                outbox.command(p.cluster().get(), new Command.Apply(uid, p.epoch(), clock.instant(), manifest(object)));
                forwardedGeneration.put(uid, generation);
                hub.event(object, "Normal", "Forwarded", "change (generation " + generation + ") sent to " + p.cluster().get());
            } else if (forwarded == null) {
                // first sight in this instance (a restart or a new leader): an apply still unconfirmed may never
                // have reached the agent, so send it again (the agent applies idempotently)
                forwardedGeneration.put(uid, generation);
                if (p.state() == State.PLACED) {
                    outbox.command(p.cluster().get(), new Command.Apply(uid, p.epoch(), clock.instant(), manifest(object)));
                }
                member(p).ifPresent(member -> mirror(uid, object, member, null));
            }
        }
        if (!object.path("metadata").path("finalizers").toString().contains("\"" + Hub.FINALIZER + "\"") && p.state() != State.DELETING) {
            hub.addFinalizer(object);
        }
    }

    private void hubDeleted(JsonNode object) {
        String uid = object.path("metadata").path("uid").asText("");
        if (!active()) {
            hubObjects.remove(uid);
            return;
        }
        PlacementRecord p = placements.get(uid);
        if (p != null && p.state() != State.DELETING) {
            delete(uid, object, p); // removed without our finalizer running (forced): still delete the copy
        }
        hubObjects.remove(uid);
    }

    /** A new federated object: hold it with a finalizer, interpret it, place it now or queue it. */
    private void submit(String uid, JsonNode object) {
        hub.addFinalizer(object);
        Instant now = clock.instant();
        PlacementRecord.Target target = target(object);
        Resolution resolution = interpreter.resolve(object);
        if (!(resolution instanceof Resolution.Resolved)) {
            String reason = "cannot interpret it: " + resolution.problems().stream().map(Problem::toString).collect(Collectors.joining("; "));
            write(new PlacementRecord(uid, target, Optional.empty(), 1, State.FAILED, reason, Map.of(), priority(object),
                    submitted(object, now), now));
            hub.mark(object, Map.of(Hub.PHASE_LABEL, "Failed"), Map.of(Hub.REASON_ANNOTATION, reason));
            hub.event(object, "Warning", "Failed", reason);
            return;
        }
        PlacementRecord queued = new PlacementRecord(uid, target, Optional.empty(), 1, State.QUEUED, "", Map.of(), priority(object),
                submitted(object, now), now);
        placements.put(uid, queued);
        demands.put(uid, new Demand(object.path("spec"), clusterSelectorText(object), interpreter,
                Demands.of(((Resolution.Resolved) resolution).view()), Demands.clusterSelector(object)));
        attempt(queued, object, planningView());
    }

    /** Plans one queued placement; places it (durably, then forwards) or records why it waits. */
    private boolean attempt(PlacementRecord p, JsonNode object, List<ClusterState> planning) {
        Instant now = clock.instant();
        Optional<Demand> asked = demand(p.uid(), object);
        if (asked.isEmpty()) {
            return false;
        }
        List<PodDemand> demand = asked.get().pods();
        Decision decision = Planner.plan(demand, asked.get().clusterSelector(), planning, settings.policy());
        decisions.put(p.uid(), decision);
        if (decision instanceof Decision.Placed placed) {
            Reservation reservation = fleet.reserve(p.uid(), p.epoch(), placed, demand);
            PlacementRecord next = p.with(Optional.of(placed.cluster()), p.epoch(), State.PLACED, "", reservation.perNode(), now);
            if (!write(next)) {
                fleet.release(p.uid());
                return false;
            }
            outbox.command(placed.cluster(), new Command.Apply(p.uid(), p.epoch(), now, manifest(object)));
            forwardedGeneration.put(p.uid(), generation(object));
            forgetMirror(p.uid());
            String why = placed.clusters().stream().filter(v -> v.cluster().equals(placed.cluster())).findFirst()
                    .map(Decision.Verdict::reason).orElse("");
            hub.mark(object, Map.of(Hub.CLUSTER_LABEL, placed.cluster(), Hub.PHASE_LABEL, "Placed"),
                    Map.of(Hub.REASON_ANNOTATION, "", Hub.EPOCH_ANNOTATION, Long.toString(p.epoch())));
            hub.event(object, "Normal", "Placed", "placed on " + placed.cluster() + " (epoch " + p.epoch() + ")"
                    + (why.isEmpty() ? "" : ": " + why));
            return true;
        }
        String reason = unschedulable(decision);
        if (!reason.equals(p.reason()) || p.state() != State.QUEUED) {
            write(p.with(Optional.empty(), p.epoch(), State.QUEUED, reason, Map.of(), now));
            hub.mark(object, Map.of(Hub.PHASE_LABEL, "Queued", Hub.CLUSTER_LABEL, ""), Map.of(Hub.REASON_ANNOTATION, reason));
            hub.event(object, "Warning", "Unschedulable", reason);
        } else {
            placements.put(p.uid(), p);
        }
        return false;
    }

    private static String unschedulable(Decision decision) {
        if (decision.clusters().isEmpty()) {
            return "no member cluster has reported yet";
        }
        return "fits on no cluster now: " + decision.clusters().stream().map(v -> v.cluster() + ": " + v.reason())
                .collect(Collectors.joining("; "));
    }

    /** Every queued placement in order (priority, then submission time, then uid), placed where it now fits. */
    private void retryQueue() {
        List<PlacementRecord> queued = placements.values().stream().filter(p -> p.state() == State.QUEUED).sorted(QUEUE_ORDER).toList();
        List<ClusterState> planning = null;
        for (PlacementRecord p : queued) {
            JsonNode object = hubObjects.get(p.uid());
            if (object != null && !deleting(object)) {
                if (planning == null) {
                    planning = planningView();
                }
                if (attempt(p, object, planning)) {
                    planning = null; // it booked nodes: the next one plans on what is left
                }
            }
        }
    }

    /** The copy of the placement on the cluster it is placed on, as that cluster's agent last reported it. */
    private Optional<WorkloadSummary> member(PlacementRecord p) {
        if (p.cluster().isEmpty()) {
            return Optional.empty();
        }
        PlacementRecord.Target t = p.target();
        String group = t.apiVersion().contains("/") ? t.apiVersion().substring(0, t.apiVersion().indexOf('/')) : "";
        WorkloadSummary s = copies.get(new dev.cartograph.protocol.WorkloadKey(p.cluster().get(), t.namespace(), group, t.kind(), t.name()));
        return s != null && s.placementId().equals(Optional.of(p.uid())) ? Optional.of(s) : Optional.empty();
    }

    private List<ClusterState> planningView() {
        return fleet.snapshot().forPlanning(clock.instant(), settings.heartbeatTimeout());
    }

    /**
     * What one object asks of a cluster, interpreted once per spec, cluster selector and definitions
     * (a queued gang is planned again on every capacity change; interpreting it again each time would
     * repeat the jq work for nothing).
     */
    private record Demand(JsonNode spec, String selector, Interpreter interpreter, List<PodDemand> pods,
                          Map<String, String> clusterSelector) {
    }

    private Optional<Demand> demand(String uid, JsonNode object) {
        Demand known = demands.get(uid);
        if (known != null && known.interpreter() == interpreter && known.spec().equals(object.path("spec"))
                && known.selector().equals(clusterSelectorText(object))) {
            return Optional.of(known);
        }
        if (!(interpreter.resolve(object) instanceof Resolution.Resolved r)) {
            demands.remove(uid);
            return Optional.empty();
        }
        Demand d = new Demand(object.path("spec"), clusterSelectorText(object), interpreter, Demands.of(r.view()),
                Demands.clusterSelector(object));
        demands.put(uid, d);
        return Optional.of(d);
    }

    private static String clusterSelectorText(JsonNode object) {
        return object.path("metadata").path("annotations").path(Demands.CLUSTER_SELECTOR).asText("");
    }

    static final Comparator<PlacementRecord> QUEUE_ORDER = Comparator.comparingInt(PlacementRecord::priority).reversed()
            .thenComparing(PlacementRecord::submitted).thenComparing(PlacementRecord::uid);

    private void delete(String uid, JsonNode object, PlacementRecord p) {
        if (p == null) {
            hub.removeFinalizer(object);
            return;
        }
        if (p.state() == State.DELETING) {
            return;
        }
        fleet.release(uid);
        capacityChanged = true;
        if ((p.state() == State.PLACED || p.state() == State.APPLIED) && p.cluster().isPresent()) {
            String cluster = p.cluster().get();
            PlacementRecord deleting = p.with(State.DELETING, "", clock.instant());
            write(deleting);
            outbox.command(cluster, new Command.Delete(uid, p.epoch(), clock.instant()));
            if (!fleet.snapshot().ready(cluster, clock.instant(), settings.heartbeatTimeout())) {
                // the delete waits in the cluster's command topic; its agent carries it out when it returns
                hub.event(object, "Warning", "Deleting", cluster + " is not ready; its copy is deleted when its agent returns");
                finishDeletion(deleting, object);
            }
            return;
        }
        finishDeletion(p, object);
    }

    private void finishDeletion(PlacementRecord p, JsonNode object) {
        try {
            outbox.forget(p.uid());
        } catch (Exception e) {
            LOG.warn("could not write the tombstone for {}: {}", p.target(), e.toString());
        }
        placements.remove(p.uid());
        decisions.remove(p.uid());
        forwardedGeneration.remove(p.uid());
        forgetMirror(p.uid());
        demands.remove(p.uid());
        lastApply.keySet().removeIf(k -> k.startsWith(p.uid() + "/"));
        fleet.release(p.uid());
        if (object != null) {
            hub.removeFinalizer(object);
        }
    }

    // ---- time

    private void tick() {
        if (!active()) {
            return;
        }
        Instant now = clock.instant();
        for (String cluster : fleet.snapshot().clusters().keySet()) {
            boolean ready = fleet.snapshot().ready(cluster, now, settings.heartbeatTimeout());
            Boolean before = readiness.put(cluster, ready);
            if (before == null || before != ready) {
                capacityChanged = true;
                LOG.info("cluster {} is {}", cluster, ready ? "ready" : "not ready");
            }
        }
        resendUnconfirmed(now);
        if (Duration.between(activeSince, now).compareTo(settings.failoverTimeout()) < 0) {
            return; // after a start, agents get one failover timeout to be heard from before any cluster counts as lost
        }
        for (PlacementRecord p : List.copyOf(placements.values())) {
            if ((p.state() != State.PLACED && p.state() != State.APPLIED) || p.cluster().isEmpty()) {
                continue;
            }
            String cluster = p.cluster().get();
            if (fleet.snapshot().ready(cluster, now, settings.failoverTimeout())) {
                continue;
            }
            JsonNode object = hubObjects.get(p.uid());
            WorkloadSummary member = member(p).orElse(null);
            boolean started = member != null && !NOT_STARTED.contains(member.phase());
            if (started && !settings.replaceRunning()) {
                if (lostReported.add(p.uid() + "/" + p.epoch()) && object != null) {
                    hub.event(object, "Warning", "ClusterLost", cluster + " has been silent longer than " + settings.failoverTimeout()
                            + "; the gang was " + member.phase() + " there and stays placed (replace-running is off)");
                }
                continue;
            }
            long epoch = p.epoch() + 1;
            outbox.command(cluster, new Command.Delete(p.uid(), epoch, now)); // fencing: the old agent deletes its copy on return
            fleet.release(p.uid());
            forgetMirror(p.uid());
            String reason = cluster + " lost (silent longer than " + settings.failoverTimeout() + "); re-placing at epoch " + epoch;
            PlacementRecord requeued = p.with(Optional.empty(), epoch, State.QUEUED, reason, Map.of(), now);
            write(requeued);
            LOG.info("{}: {}", p.target(), reason);
            if (object != null) {
                hub.event(object, "Warning", "ClusterLost", reason);
                hub.mark(object, Map.of(Hub.PHASE_LABEL, "Queued", Hub.CLUSTER_LABEL, ""), Map.of(Hub.REASON_ANNOTATION, reason,
                        Hub.EPOCH_ANNOTATION, Long.toString(epoch)));
            }
            capacityChanged = true;
        }
    }

    /**
     * An apply the agent has not confirmed within the heartbeat timeout, while its cluster is ready,
     * is sent again (a command lost between producer and topic, say); the agent applies idempotently.
     */
    private void resendUnconfirmed(Instant now) {
        for (PlacementRecord p : placements.values()) {
            if (p.state() != State.PLACED || p.cluster().isEmpty()) {
                continue;
            }
            Instant last = lastApply.getOrDefault(p.uid() + "/" + p.epoch(), p.at());
            JsonNode object = hubObjects.get(p.uid());
            if (object != null && !deleting(object) && Duration.between(last, now).compareTo(settings.heartbeatTimeout()) > 0
                    && fleet.snapshot().ready(p.cluster().get(), now, settings.heartbeatTimeout())) {
                LOG.info("{}: no answer from {} for epoch {}; sending the apply again", p.target(), p.cluster().get(), p.epoch());
                outbox.command(p.cluster().get(), new Command.Apply(p.uid(), p.epoch(), now, manifest(object)));
                lastApply.put(p.uid() + "/" + p.epoch(), now);
            }
        }
    }

    // ---- helpers

    private void forgetMirror(String uid) {
        mirroredStatus.remove(uid);
        mirroredPhase.removeIf(k -> k.startsWith(uid + "/"));
    }

    private boolean write(PlacementRecord p) {
        try {
            outbox.placement(p);
            placements.put(p.uid(), p);
            return true;
        } catch (Exception e) {
            LOG.error("could not make the placement of {} durable; not forwarding it: {}", p.target(), e.toString());
            return false;
        }
    }

    private void publish() {
        List<String> queue = placements.values().stream().filter(p -> p.state() == State.QUEUED).sorted(QUEUE_ORDER)
                .map(PlacementRecord::uid).toList();
        Map<String, WorkloadSummary> members = new HashMap<>();
        for (PlacementRecord p : placements.values()) {
            member(p).ifPresent(m -> members.put(p.uid(), m));
        }
        view.set(new BrokerView(fleet.snapshot(), placements, queue, decisions, members, leading, caughtUp, poison, clock.instant()));
    }

    static boolean deleting(JsonNode object) {
        return !object.path("metadata").path("deletionTimestamp").asText("").isEmpty();
    }

    private static long generation(JsonNode object) {
        return object.path("metadata").path("generation").asLong(0);
    }

    static PlacementRecord.Target target(JsonNode object) {
        JsonNode m = object.path("metadata");
        return new PlacementRecord.Target(m.path("namespace").asText(""), object.path("apiVersion").asText(""),
                object.path("kind").asText(""), m.path("name").asText(""));
    }

    /**
     * Queue priority: the {@code cartograph.dev/priority} annotation; else the highest value of the
     * PriorityClasses its pod templates name ({@code priorityClassName} anywhere in the object, shape-blind);
     * else the hub's global default class; else 0.
     */
    private int priority(JsonNode object) {
        String text = object.path("metadata").path("annotations").path(PRIORITY_ANNOTATION).asText("");
        if (!text.isEmpty()) {
            try {
                return Integer.parseInt(text.strip());
            } catch (NumberFormatException e) {
                LOG.warn("{}: annotation {}='{}' is not a whole number; using its priority class", target(object), PRIORITY_ANNOTATION, text);
            }
        }
        List<String> names = new ArrayList<>();
        object.path("spec").findValues("priorityClassName").forEach(v -> names.add(v.asText()));
        return names.stream().map(priorityClasses::value).flatMap(Optional::stream).max(Integer::compare)
                .orElse(priorityClasses.globalDefault().orElse(0));
    }

    private static Instant submitted(JsonNode object, Instant fallback) {
        try {
            return Instant.parse(object.path("metadata").path("creationTimestamp").asText(""));
        } catch (java.time.format.DateTimeParseException e) {
            return fallback;
        }
    }

    /** What is sent to the member: the hub object without server fields, status, or the broker's own marks. */
    static JsonNode manifest(JsonNode object) {
        ObjectNode copy = object.deepCopy();
        ObjectNode meta = copy.with("metadata");
        for (String field : new String[] {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "finalizers",
                "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences", "selfLink"}) {
            meta.remove(field);
        }
        for (String map : new String[] {"labels", "annotations"}) {
            if (meta.get(map) instanceof ObjectNode o) {
                Map<String, JsonNode> keep = new LinkedHashMap<>();
                o.fields().forEachRemaining(e -> {
                    if (!e.getKey().startsWith(Hub.PREFIX) || e.getKey().equals(Demands.CLUSTER_SELECTOR)
                            || e.getKey().equals(PRIORITY_ANNOTATION)) {
                        keep.put(e.getKey(), e.getValue());
                    }
                });
                o.removeAll();
                o.setAll(keep);
                o.remove("kubectl.kubernetes.io/last-applied-configuration");
            }
        }
        copy.remove("status");
        return copy;
    }

    @Override
    public void close() {
        running.set(false);
    }
}
