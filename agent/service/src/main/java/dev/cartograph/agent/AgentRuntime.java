package dev.cartograph.agent;

import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.fence.Fencer;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.agent.fence.StartedMarks;
import dev.cartograph.agent.kafka.Backoff;
import dev.cartograph.agent.kafka.CommandLoop;
import dev.cartograph.agent.kafka.CommandSource;
import dev.cartograph.agent.kafka.OwnTopics;
import dev.cartograph.agent.kafka.Publisher;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.agent.order.CommandOrder;
import dev.cartograph.agent.report.Reporter;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.kube.KartaWatch;
import dev.cartograph.protocol.Topics;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent: informers feed change signals; a single publishing thread conflates them into at
 * most one record per key per interval (plus a heartbeat, {@link Publishing}); a command thread applies
 * what the broker sends ({@link CommandHandler}). Informer handlers only enqueue; the work loop reads whole
 * current state. Start once, close once; thread-safe.
 */
public final class AgentRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);
    public static final String VERSION = "0.1.0";

    private final AgentSettings settings;
    private final MemberCluster member;
    private final Clock clock;
    private final AgentObserver observer;
    private volatile Interpreter interpreter;
    private final Reporter reporter;
    private final Topics topics;
    private final PendingChanges changes = new PendingChanges();
    private final ClusterCache cache;
    private volatile ApplyPolicy policy;
    private final Definitions catalog;
    private KartaWatch kartas;
    private final ScheduledExecutorService publishing =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "agent-publish"));
    /** Its own thread: a producer blocked on an unreachable Kafka must not hold fencing up. */
    private final ScheduledExecutorService fencing =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "agent-fence"));
    /** Its own thread too: a throttled API server must hold up neither publishing nor fencing. */
    private final ScheduledExecutorService marking =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "agent-marks"));

    private SelfFence fence;
    private StartedMarks marks;
    private OwnTopics ownTopics;
    private Publisher publisher;
    private CommandLoop commands;
    private Thread commandThread;

    /**
     * @param member the cluster this agent serves; the agent neither owns nor closes its client
     * @param definitions the built-in catalog; the cluster's {@code kartas.run.ai} objects are laid over it at
     *                    start and followed while the agent runs
     */
    public AgentRuntime(AgentSettings settings, MemberCluster member, Definitions definitions, Clock clock) {
        this(settings, member, definitions, clock, AgentObserver.NONE);
    }

    /** @param observer told each summary Kafka acknowledged and each command carried out (metrics) */
    public AgentRuntime(
            AgentSettings settings,
            MemberCluster member,
            Definitions definitions,
            Clock clock,
            AgentObserver observer) {
        this.observer = observer;
        this.catalog = definitions;
        this.settings = settings;
        this.member = member;
        this.clock = clock;
        this.interpreter = Interpreter.of(definitions);
        this.reporter = new Reporter(
                settings.cluster(),
                settings.labels(),
                VERSION,
                UUID.randomUUID().toString());
        this.topics = new Topics(settings.topicPrefix());
        this.policy = policy(definitions);
        this.cache = member.cache(definitions, changes::accept);
    }

    public void start() {
        Definitions initial = member.withKartas(catalog); // before any command is read
        interpreter = Interpreter.of(initial);
        policy = policy(initial);
        cache.start();
        cache.definitions(initial);
        try {
            kartas = member.followKartas(catalog, this::definitions);
        } catch (RuntimeException e) {
            LOG.warn("cannot follow kartas.run.ai ({}); definitions stay as read at start", e.getMessage());
        }
        ownTopics = OwnTopics.kafka(settings.kafka(), topics, settings.cluster(), settings.topicSettings(), clock);
        publisher = new Publisher(settings.kafka(), topics, settings.cluster());
        KubeApplier applier = member.applier(cache, settings.createNamespaces());
        String topic = topics.commands(settings.cluster());
        commands = new CommandLoop(
                settings.cluster(),
                () -> CommandSource.kafka(settings.kafka(), topic, settings.cluster()),
                publisher,
                new CommandHandler(
                        settings.cluster(),
                        cache,
                        applier,
                        () -> policy,
                        changes,
                        clock,
                        observer,
                        new CommandOrder(
                                applier.deletions(settings.admission().agentNamespace(), clock),
                                settings.commands(),
                                clock)),
                Backoff.DEFAULT,
                clock);
        commandThread = new Thread(commands, "agent-commands");
        commandThread.start();
        long every = settings.publishInterval().toMillis();
        fence = new SelfFence(settings.fencing(), clock.instant());
        marks = new StartedMarks(fence, w -> cache.workload(w.kind(), w.namespace(), w.name()), applier, clock);
        CommandLoop loop = commands;
        Publishing round = new Publishing(
                cache,
                changes,
                () -> interpreter,
                reporter,
                publisher,
                fence,
                marks,
                () -> !loop.status().ended(),
                settings.heartbeatInterval(),
                clock,
                observer);
        OwnTopics own = ownTopics;
        // nothing is published before the cluster's own topics exist; changes wait in PendingChanges
        publishing.scheduleWithFixedDelay(
                () -> {
                    if (own.ready()) {
                        round.run();
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
        fencing.scheduleWithFixedDelay(new Fencer(fence, cache::workloads, applier, clock), 1, 1, TimeUnit.SECONDS);
        marking.scheduleWithFixedDelay(marks, 1, 1, TimeUnit.SECONDS);
        LOG.info("agent for cluster {} started (incarnation {})", settings.cluster(), reporter.incarnation());
    }

    /** Interpret, admit and watch with these definitions from now on. */
    private void definitions(Definitions changed) {
        interpreter = Interpreter.of(changed);
        policy = policy(changed);
        cache.definitions(changed);
    }

    /** Admission with these definitions: allowed and denied namespaces, pod security. */
    private ApplyPolicy policy(Definitions definitions) {
        return new ApplyPolicy(
                definitions,
                settings.allowedNamespaces(),
                settings.admission().deniedNamespaces(),
                settings.admission().podSecurity());
    }

    /** Per informer (nodes, pods, CRDs, each workload kind watched), whether its first list has arrived. */
    public java.util.Map<String, Boolean> informersSynced() {
        return cache.synced();
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
                            + ownTopics.problem().map(p -> ": " + p).orElse("")
                            + (fence.fencing() ? "; self-fenced: copies the broker re-places were deleted here" : ""));
        }
        return new Health(true, "commands: " + loop.state() + ", " + loop.detail());
    }

    /**
     * Writes the marks of what Kafka acknowledged last (bounded: five seconds), so an orderly restart keeps them; a
     * crash loses at most those of the last second.
     */
    private void markLast() {
        marking.shutdown(); // the run already scheduled is dropped; one last one runs below
        try {
            if (marking.awaitTermination(5, TimeUnit.SECONDS) && marks != null) {
                java.util.concurrent.CompletableFuture.runAsync(marks).get(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn("the last marks of copies Kafka has as started were not written: {}", e.toString());
        }
        marking.shutdownNow();
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
            publisher.close(); // runs the callbacks of what Kafka still acknowledges
        }
        markLast();
        if (ownTopics != null) {
            ownTopics.close();
        }
        if (kartas != null) {
            kartas.close();
        }
        cache.close();
    }
}
