package dev.cartograph.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.agent.fence.Fencer;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.agent.kafka.Backoff;
import dev.cartograph.agent.kafka.CommandLoop;
import dev.cartograph.agent.kafka.CommandSource;
import dev.cartograph.agent.kafka.Publisher;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.agent.report.Reporter;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One agent: informers feed change signals; a single publishing thread conflates them into at
 * most one record per key per interval (plus a heartbeat); a command thread applies what the
 * broker sends. Informer handlers only enqueue; the work loop reads whole current state. Start
 * once, close once; thread-safe.
 */
public final class AgentRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);
    public static final String VERSION = "0.1.0";

    private final AgentSettings settings;
    private final KubernetesClient client;
    private final Clock clock;
    private volatile Interpreter interpreter;
    private final Reporter reporter;
    private final Topics topics;
    private final ClusterCache cache;
    private volatile ApplyPolicy policy;
    private final Definitions catalog;
    private dev.cartograph.kube.KartaWatch kartas;
    private final AtomicBoolean capacityDirty = new AtomicBoolean(true);
    private final Set<ClusterCache.Change.Workload> dirtyWorkloads = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Instant> lastClusterRecord = new AtomicReference<>(Instant.EPOCH);
    private final ScheduledExecutorService publishing =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "agent-publish"));
    /** Its own thread: a producer blocked on an unreachable Kafka must not hold fencing up. */
    private final ScheduledExecutorService fencing =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "agent-fence"));

    private SelfFence fence;
    private Publisher publisher;
    private KubeApplier applier;
    private CommandLoop commands;
    private Thread commandThread;

    /**
     * @param definitions the built-in catalog; the cluster's {@code kartas.run.ai} objects are laid over it at
     *                    start and followed while the agent runs
     */
    public AgentRuntime(AgentSettings settings, KubernetesClient client, Definitions definitions, Clock clock) {
        this.catalog = definitions;
        this.settings = settings;
        this.client = client;
        this.clock = clock;
        this.interpreter = Interpreter.of(definitions);
        this.reporter = new Reporter(
                settings.cluster(),
                settings.labels(),
                VERSION,
                UUID.randomUUID().toString());
        this.topics = new Topics(settings.topicPrefix());
        this.policy = new ApplyPolicy(definitions, settings.allowedNamespaces(), ApplyPolicy.SYSTEM_NAMESPACES);
        this.cache = new ClusterCache(client, definitions, change -> {
            if (change instanceof ClusterCache.Change.Workload w) {
                dirtyWorkloads.add(w);
            }
            capacityDirty.set(true);
        });
    }

    public void start() {
        Definitions initial = dev.cartograph.kube.Kartas.overlay(catalog, client); // before any command is read
        interpreter = Interpreter.of(initial);
        policy = new ApplyPolicy(initial, settings.allowedNamespaces(), ApplyPolicy.SYSTEM_NAMESPACES);
        cache.start();
        cache.definitions(initial);
        try {
            kartas = dev.cartograph.kube.KartaWatch.start(client, catalog, this::definitions);
        } catch (RuntimeException e) {
            LOG.warn("cannot follow kartas.run.ai ({}); definitions stay as read at start", e.getMessage());
        }
        publisher = new Publisher(settings.kafka(), topics);
        applier = new KubeApplier(client, cache::plural, settings.createNamespaces(), Duration.ofMillis(200), 4);
        String topic = topics.commands(settings.cluster());
        commands = new CommandLoop(
                settings.cluster(),
                () -> CommandSource.kafka(settings.kafka(), topic, settings.cluster()),
                publisher,
                this::handle,
                Backoff.DEFAULT,
                clock);
        commandThread = new Thread(commands, "agent-commands");
        commandThread.start();
        long every = settings.publishInterval().toMillis();
        fence = new SelfFence(settings.fencing(), clock.instant());
        publishing.scheduleWithFixedDelay(this::publishSafely, every, every, TimeUnit.MILLISECONDS);
        fencing.scheduleWithFixedDelay(new Fencer(fence, cache::workloads, applier, clock), 1, 1, TimeUnit.SECONDS);
        LOG.info("agent for cluster {} started (incarnation {})", settings.cluster(), reporter.incarnation());
    }

    /** Interpret, admit and watch with these definitions from now on. */
    private void definitions(Definitions changed) {
        interpreter = Interpreter.of(changed);
        policy = new ApplyPolicy(changed, settings.allowedNamespaces(), ApplyPolicy.SYSTEM_NAMESPACES);
        cache.definitions(changed);
    }

    public String incarnation() {
        return reporter.incarnation();
    }

    public long poisonCommands() {
        return commands == null ? 0 : commands.poisonRecords();
    }

    /** Kafka failures the command loop has survived. */
    public long commandKafkaFailures() {
        return commands == null ? 0 : commands.kafkaFailures();
    }

    /** Up when the command loop runs and Kafka acknowledged a cluster summary within two heartbeats. */
    public boolean healthy() {
        return health().up();
    }

    /** Whether the agent serves, and in words why not (or what its command loop is doing). */
    public record Health(boolean up, String reason) {}

    public Health health() {
        if (commands == null || commandThread == null) {
            return new Health(false, "not started");
        }
        CommandLoop.Status loop = commands.status();
        if (loop.ended() || !commandThread.isAlive()) {
            return new Health(false, "commands are not read: " + loop.detail());
        }
        // measured from start until the first acknowledgement: a summary sent but not acknowledged counts for nothing
        Duration unacknowledged = Duration.between(fence.lastDelivered(), clock.instant());
        if (unacknowledged.compareTo(settings.heartbeatInterval().multipliedBy(2)) >= 0) {
            return new Health(
                    false,
                    "Kafka has acknowledged no cluster summary for " + unacknowledged.toSeconds() + "s"
                            + (fence.fencing() ? "; self-fenced: copies the broker re-places were deleted here" : ""));
        }
        return new Health(true, "commands: " + loop.state() + ", " + loop.detail());
    }

    private void publishSafely() {
        try {
            publish();
        } catch (RuntimeException e) {
            LOG.warn("publishing failed, will retry next interval: {}", e.toString());
        }
    }

    private void publish() {
        Instant now = clock.instant();
        boolean heartbeatDue =
                Duration.between(lastClusterRecord.get(), now).compareTo(settings.heartbeatInterval()) >= 0;
        // no heartbeat from an agent that no longer reads commands: the broker must see this cluster go quiet, not
        // Ready
        boolean serving = commands == null || !commands.status().ended();
        if (serving && (capacityDirty.getAndSet(false) || heartbeatDue)) {
            List<JsonNode> workloads = cache.workloads();
            List<JsonNode> pods = cache.pods();
            List<JsonNode> placed = workloads.stream()
                    .filter(o -> Ownership.placementId(o).isPresent())
                    .toList();
            Map<String, String> ownerOf = owners(workloads, pods);
            publisher.cluster(
                    reporter.cluster(
                            interpreter, cache.nodes(), pods, placed, object -> podsOf(object, pods, ownerOf), now),
                    () -> fence.delivered(now));
            lastClusterRecord.set(now);
        }
        List<ClusterCache.Change.Workload> batch = new ArrayList<>(dirtyWorkloads);
        dirtyWorkloads.removeAll(batch);
        for (ClusterCache.Change.Workload w : batch) {
            Optional<JsonNode> object = cache.workload(w.kind(), w.namespace(), w.name());
            if (object.isPresent()) {
                reporter.workload(interpreter, object.get(), now)
                        .ifPresent(s -> publisher.workload(
                                s, () -> s.placementId().ifPresent(id -> fence.delivered(id, s.started()))));
            } else {
                publisher.workloadDeleted(reporter.key(tombstoneOf(w)), () -> {});
            }
        }
        publisher.flush();
    }

    private static JsonNode tombstoneOf(ClusterCache.Change.Workload w) {
        var o = dev.cartograph.interpreter.Documents.json()
                .createObjectNode()
                .put("apiVersion", w.kind().apiVersion())
                .put("kind", w.kind().kind());
        o.putObject("metadata").put("namespace", w.namespace()).put("name", w.name());
        return o;
    }

    /** uid → controlling owner uid, over pods and every cached workload object (Jobs, ReplicaSets… are catalog kinds). */
    private static Map<String, String> owners(List<JsonNode> workloads, List<JsonNode> pods) {
        Map<String, String> out = new HashMap<>();
        for (List<JsonNode> list : List.of(workloads, pods)) {
            for (JsonNode o : list) {
                for (JsonNode ref : o.path("metadata").path("ownerReferences")) {
                    if (ref.path("controller").asBoolean(false)
                            || o.path("metadata").path("ownerReferences").size() == 1) {
                        out.put(
                                o.path("metadata").path("uid").asText(),
                                ref.path("uid").asText());
                    }
                }
            }
        }
        return out;
    }

    private static List<JsonNode> podsOf(JsonNode object, List<JsonNode> pods, Map<String, String> ownerOf) {
        String uid = object.path("metadata").path("uid").asText();
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode pod : pods) {
            String current = pod.path("metadata").path("uid").asText();
            for (int hops = 0; hops < 6 && current != null; hops++) {
                current = ownerOf.get(current);
                if (uid.equals(current)) {
                    out.add(pod);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * What this agent last applied per placement (only the object's name), so a Delete read right
     * after its Apply finds the copy even before the informer cache has seen it. Command thread only;
     * entries leave with their Delete.
     */
    private final Map<String, JsonNode> lastApplied = new java.util.HashMap<>();

    /** One command: find what this agent created for the placement, decide, act, report. */
    CommandResult handle(Command command) {
        Optional<JsonNode> existing = cache.workloads().stream()
                .filter(o -> Ownership.ownedBy(o, command.placementId()))
                .findFirst();
        if (existing.isEmpty()) {
            // the cache may not have seen this agent's own last write: read what the command (or the last apply) names
            Optional<JsonNode> named = command instanceof Command.Apply apply
                    ? Optional.of(apply.manifest())
                    : Optional.ofNullable(lastApplied.get(command.placementId()));
            existing = named.flatMap(this::live).filter(o -> Ownership.ownedBy(o, command.placementId()));
        }
        existing.filter(o -> command instanceof Command.Delete)
                .ifPresent(
                        o -> { // the command loop clears these
                            MDC.put("kind", o.path("kind").asText());
                            MDC.put(
                                    "namespace",
                                    o.path("metadata").path("namespace").asText());
                            MDC.put("name", o.path("metadata").path("name").asText());
                        });
        ApplyPolicy.Decision decision = policy.decide(command, existing);
        KubeApplier.Outcome outcome = applier.carryOut(decision);
        capacityDirty.set(true);
        // an apply that timed out (RETRY) or failed may still have created the copy: remember it all the same
        if (command instanceof Command.Apply apply
                && outcome.outcome() != CommandResult.Outcome.REJECTED
                && outcome.outcome() != CommandResult.Outcome.STALE) {
            lastApplied.put(command.placementId(), identity(apply.manifest()));
        } else if (command instanceof Command.Delete && outcome.outcome() == CommandResult.Outcome.DELETED) {
            lastApplied.remove(command.placementId());
        }
        boolean done =
                outcome.outcome() != CommandResult.Outcome.RETRY && outcome.outcome() != CommandResult.Outcome.FAILED;
        (done ? LOG.atInfo() : LOG.atWarn())
                .log(
                        "{} {} epoch {}: {} ({})",
                        command instanceof Command.Apply ? "apply" : "delete",
                        command.placementId(),
                        command.epoch(),
                        outcome.outcome(),
                        outcome.reason());
        return new CommandResult(
                settings.cluster(),
                command.placementId(),
                command.epoch(),
                command instanceof Command.Apply ? "apply" : "delete",
                outcome.outcome(),
                outcome.reason(),
                clock.instant());
    }

    /** What names an object (apiVersion, kind, namespace, name): enough to read it back. */
    private static JsonNode identity(JsonNode manifest) {
        var o = dev.cartograph.interpreter.Documents.json()
                .createObjectNode()
                .put("apiVersion", manifest.path("apiVersion").asText())
                .put("kind", manifest.path("kind").asText());
        o.putObject("metadata")
                .put("namespace", manifest.path("metadata").path("namespace").asText())
                .put("name", manifest.path("metadata").path("name").asText());
        return o;
    }

    /** The object the manifest names, read from the API server: the cache may not have seen our own last write. */
    private Optional<JsonNode> live(JsonNode manifest) {
        return applier.current(manifest);
    }

    @Override
    public void close() {
        fencing.shutdownNow();
        publishing.shutdown(); // let a publish in flight finish rather than interrupt the producer
        try {
            if (!publishing.awaitTermination(5, TimeUnit.SECONDS)) {
                publishing.shutdownNow();
            }
        } catch (InterruptedException e) {
            publishing.shutdownNow();
            Thread.currentThread().interrupt();
        }
        if (commands != null) {
            commands.close();
        }
        try {
            if (commandThread != null) {
                commandThread.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (publisher != null) {
            publisher.close();
        }
        if (kartas != null) {
            kartas.close();
        }
        cache.close();
    }
}
