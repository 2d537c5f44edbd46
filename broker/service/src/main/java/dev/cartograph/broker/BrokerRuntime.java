package dev.cartograph.broker;

import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.api.BrokerState;
import dev.cartograph.broker.api.Views;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.coordinate.Coordinator;
import dev.cartograph.broker.coordinate.DecisionObserver;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.broker.coordinate.LeaderElection;
import dev.cartograph.broker.hub.ClusterObjects;
import dev.cartograph.broker.hub.HubConnection;
import dev.cartograph.broker.hub.HubWatch;
import dev.cartograph.broker.hub.KubeHub;
import dev.cartograph.broker.hub.QueueObjects;
import dev.cartograph.broker.kafka.Ingest;
import dev.cartograph.broker.kafka.KafkaOutbox;
import dev.cartograph.broker.kafka.KafkaUsage;
import dev.cartograph.broker.kafka.PlacementsTopicWatch;
import dev.cartograph.broker.kafka.Topology;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.broker.usage.StoredUsage;
import dev.cartograph.broker.usage.UsageAccounting;
import dev.cartograph.broker.usage.UsageObserver;
import dev.cartograph.fleet.FleetReport;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.Topics;
import dev.cartograph.usage.Ledger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker instance: Kafka ingest and the coordinator always run (every replica keeps fleet state
 * for reads); the hub is written and gangs are placed only while this instance holds the leader
 * Lease on the hub (when leader election is on). Start once, close once.
 */
public final class BrokerRuntime implements BrokerState, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRuntime.class);
    /** How often the broker asks Kafka whether its placements topic is still the one it read. */
    static final Duration PLACEMENTS_TOPIC_CHECKED_EVERY = Duration.ofSeconds(10);

    /** How often the hub's listing is handed to the coordinator ({@code Input.HubListed}). */
    static final java.time.Duration HUB_LISTED_EVERY = java.time.Duration.ofSeconds(15);

    private final BrokerSettings settings;
    private final HubConnection hubConnection;
    private final Definitions definitions;
    private final Clock clock;
    private final Topics topics;
    private final DecisionObserver decisions;
    private final UsageObserver usageObserver;
    private final Duration usageRetention;
    private UsageAccounting usage;
    private StoredUsage storedUsage;
    private KafkaOutbox outbox;
    private Topology topology;
    private Coordinator coordinator;
    private volatile Ingest ingest;
    private HubWatch watch;
    private KubeHub hub;
    private Thread coordinatorThread;
    private Thread ingestThread;
    private LeaderElection election;
    private final ScheduledExecutorService ticker =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "broker-tick"));
    private final ScheduledExecutorService hubSync =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "broker-clusters"));
    /** Asks Kafka about the placements topic: its calls may wait, so they wait on a thread of their own. */
    private final ScheduledExecutorService topicCheck =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "broker-topic-check"));

    /** @param hubConnection the hub the broker watches and writes, and holds its leader Lease on */
    public BrokerRuntime(BrokerSettings settings, HubConnection hubConnection, Definitions definitions, Clock clock) {
        this(settings, hubConnection, definitions, clock, DecisionObserver.NONE);
    }

    /** @param decisions told how each placement attempt ended and how long it took (metrics) */
    public BrokerRuntime(
            BrokerSettings settings,
            HubConnection hubConnection,
            Definitions definitions,
            Clock clock,
            DecisionObserver decisions) {
        this(settings, hubConnection, definitions, clock, decisions, UsageObserver.NONE, UsageAccounting.RETENTION);
    }

    /**
     * @param usageObserver  told the GPU time the leader counts (metrics)
     * @param usageRetention how long hours of usage are kept
     */
    public BrokerRuntime(
            BrokerSettings settings,
            HubConnection hubConnection,
            Definitions definitions,
            Clock clock,
            DecisionObserver decisions,
            UsageObserver usageObserver,
            Duration usageRetention) {
        this.decisions = decisions;
        this.usageObserver = usageObserver;
        this.usageRetention = usageRetention;
        this.settings = settings;
        this.hubConnection = hubConnection;
        this.definitions = definitions;
        this.clock = clock;
        this.topics = new Topics(settings.topicPrefix());
    }

    public void start() throws Exception {
        topology = new Topology(settings.kafka(), topics, settings.topicSettings());
        outbox = new KafkaOutbox(settings.kafka(), topics, topology::ensureCommandTopicOrLog);
        java.util.concurrent.atomic.AtomicReference<Coordinator> ref =
                new java.util.concurrent.atomic.AtomicReference<>();
        watch = hubConnection.watch(
                definitions,
                settings.federationKey(),
                settings.federationValue(),
                in -> ref.get().post(in));
        hub = hubConnection.hub(watch, clock);
        coordinator = new Coordinator(
                settings,
                Interpreter.of(definitions),
                outbox,
                hub,
                clock,
                watch.priorityClasses(),
                watch.dependencies(),
                decisions);
        ref.set(coordinator);
        hub.fenceBy(coordinator::actingTerm);
        KafkaUsage usageStore = new KafkaUsage(settings.kafka(), topics, topology, outbox);
        usage = new UsageAccounting(usageStore, usageObserver, UsageAccounting.FLUSH_EVERY, usageRetention);
        storedUsage = new StoredUsage(usageStore, clock, UsageAccounting.FLUSH_EVERY);
        coordinator.account(usage);
        ingest = new Ingest(settings.kafka(), topics, topology, coordinator);
        coordinator.catchUpWith(ingest::mark);
        if (settings.leaderElection()) {
            election = hubConnection.election(settings.leaseNamespace(), settings.leaseName(), settings.brokerId());
            coordinator.resignWith(election::resign);
        }
        coordinatorThread = new Thread(coordinator, "broker-coordinator");
        coordinatorThread.start();
        ingestThread = new Thread(ingest, "broker-ingest");
        ingestThread.start();
        hubSync.execute(this::watchHub);
        long every = settings.tick().toMillis();
        ticker.scheduleWithFixedDelay(() -> coordinator.post(new Input.Tick()), every, every, TimeUnit.MILLISECONDS);
        ClusterObjects clusterObjects = hubConnection.clusterObjects();
        QueueObjects queueObjects = hubConnection.queueObjects();
        hubSync.scheduleWithFixedDelay(
                () -> {
                    try {
                        BrokerView v = coordinator.view();
                        if (v.active()) {
                            Instant now = clock.instant();
                            clusterObjects.sync(
                                    FleetReport.of(
                                            v.fleet(), now, settings.heartbeatTimeout(), Views.pendingByCluster(v)),
                                    now);
                            queueObjects.sync(v.queues());
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("cluster and queue objects not synced: {}", e.toString());
                    }
                },
                1,
                2,
                TimeUnit.SECONDS);
        // what vanished from the hub while nobody acted is found by listing it (HubInventory)
        hubSync.scheduleWithFixedDelay(
                () -> {
                    try {
                        if (watch.started()) {
                            coordinator.post(new Input.HubListed(watch.listed()));
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("the hub's listing was not handed on: {}", e.toString());
                    }
                },
                5,
                HUB_LISTED_EVERY.toSeconds(),
                TimeUnit.SECONDS);
        // a placements topic deleted or made again under this broker is an alarm, and its records are written again
        PlacementsTopicWatch placementsTopic = new PlacementsTopicWatch(topology);
        topicCheck.scheduleWithFixedDelay(
                () -> placementsTopic.check().ifPresent(reason -> coordinator.post(new Input.PlacementsLost(reason))),
                PLACEMENTS_TOPIC_CHECKED_EVERY.toSeconds(),
                PLACEMENTS_TOPIC_CHECKED_EVERY.toSeconds(),
                TimeUnit.SECONDS);
        if (election != null) {
            election.start(coordinator::leading);
        }
        LOG.info(
                "broker {} started (topics {}.*, federation label {})",
                settings.brokerId(),
                settings.topicPrefix(),
                settings.federationLabel());
    }

    /** Starts watching the hub; while it cannot be reached, tries again every 5 s (the rest of the broker keeps running). */
    private void watchHub() {
        try {
            watch.start();
            LOG.info("watching the hub at {}", hubConnection.url());
        } catch (RuntimeException e) {
            LOG.warn(
                    "the hub at {} cannot be watched yet ({}); trying again in 5 s",
                    hubConnection.url(),
                    e.getMessage());
            hubSync.schedule(this::watchHub, 5, TimeUnit.SECONDS);
        }
    }

    /** Records the ingest is behind the log end, per topic read (empty before it starts). Thread-safe. */
    public Map<String, Long> ingestLag() {
        Ingest i = ingest;
        return i == null ? Map.of() : i.lag();
    }

    public boolean watchingHub() {
        return watch != null && watch.started();
    }

    @Override
    public BrokerView view() {
        return coordinator == null ? BrokerView.EMPTY : coordinator.view();
    }

    /** True while the ingest and coordinator threads run. */
    public boolean running() {
        return ingestThread != null
                && ingestThread.isAlive()
                && coordinatorThread != null
                && coordinatorThread.isAlive();
    }

    @Override
    public Ledger usage() throws Exception {
        if (usage == null) {
            return Ledger.empty();
        }
        java.util.Optional<Ledger> own = usage.current();
        return own.isPresent() ? own.get() : storedUsage.get();
    }

    @Override
    public BrokerSettings settings() {
        return settings;
    }

    /** The catalog with the hub's Karta definitions over it, as the broker interprets now. */
    @Override
    public Definitions definitions() {
        return watch == null ? definitions : watch.definitions();
    }

    @Override
    public Optional<ApiResource> resource(String apiVersion, String kind) {
        return watch == null ? Optional.empty() : watch.resource(apiVersion, kind);
    }

    @Override
    public Clock clock() {
        return clock;
    }

    /** Waits until the hub writes queued so far are done. */
    public void drainHubWrites(Duration timeout) throws InterruptedException {
        hub.drain(timeout);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        hubSync.shutdownNow();
        topicCheck.shutdownNow();
        if (election != null) {
            election.close();
        }
        if (watch != null) {
            watch.close();
        }
        if (ingest != null) {
            ingest.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
        join(ingestThread);
        join(coordinatorThread);
        if (hub != null) {
            hub.close();
        }
        if (outbox != null) {
            outbox.close();
        }
        if (topology != null) {
            topology.close();
        }
    }

    private static void join(Thread t) {
        if (t == null) {
            return;
        }
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
