package dev.cartograph.broker;

import dev.cartograph.broker.api.Views;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.coordinate.Coordinator;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.broker.hub.ClusterObjects;
import dev.cartograph.broker.hub.HubWatch;
import dev.cartograph.broker.hub.KubeHub;
import dev.cartograph.broker.kafka.Ingest;
import dev.cartograph.broker.kafka.KafkaOutbox;
import dev.cartograph.broker.kafka.Topology;
import dev.cartograph.fleet.FleetReport;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.Topics;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
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
public final class BrokerRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRuntime.class);

    private final BrokerSettings settings;
    private final KubernetesClient hubClient;
    private final Definitions definitions;
    private final Clock clock;
    private final Topics topics;
    private KafkaOutbox outbox;
    private Topology topology;
    private Coordinator coordinator;
    private Ingest ingest;
    private HubWatch watch;
    private KubeHub hub;
    private Thread coordinatorThread;
    private Thread ingestThread;
    private CompletableFuture<?> election;
    private final ScheduledExecutorService ticker =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "broker-tick"));
    private final ScheduledExecutorService hubSync =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "broker-clusters"));

    public BrokerRuntime(BrokerSettings settings, KubernetesClient hubClient, Definitions definitions, Clock clock) {
        this.settings = settings;
        this.hubClient = hubClient;
        this.definitions = definitions;
        this.clock = clock;
        this.topics = new Topics(settings.topicPrefix());
    }

    public void start() throws Exception {
        topology = new Topology(settings.kafka(), topics, settings.topicSettings());
        outbox = new KafkaOutbox(settings.kafka(), topics, topology::ensureCommandTopicOrLog);
        java.util.concurrent.atomic.AtomicReference<Coordinator> ref =
                new java.util.concurrent.atomic.AtomicReference<>();
        watch = new HubWatch(
                hubClient,
                definitions,
                settings.federationKey(),
                settings.federationValue(),
                in -> ref.get().post(in));
        hub = new KubeHub(hubClient, watch);
        coordinator =
                new Coordinator(settings, Interpreter.of(definitions), outbox, hub, clock, watch.priorityClasses());
        ref.set(coordinator);
        ingest = new Ingest(settings.kafka(), topics, topology, coordinator);
        coordinator.catchUpWith(ingest::mark);
        coordinatorThread = new Thread(coordinator, "broker-coordinator");
        coordinatorThread.start();
        ingestThread = new Thread(ingest, "broker-ingest");
        ingestThread.start();
        hubSync.execute(this::watchHub);
        long every = settings.tick().toMillis();
        ticker.scheduleWithFixedDelay(() -> coordinator.post(new Input.Tick()), every, every, TimeUnit.MILLISECONDS);
        ClusterObjects clusterObjects = new ClusterObjects(hubClient);
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
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("cluster objects not synced: {}", e.toString());
                    }
                },
                1,
                2,
                TimeUnit.SECONDS);
        if (settings.leaderElection()) {
            election = hubClient
                    .leaderElector()
                    .withConfig(new LeaderElectionConfigBuilder()
                            .withName(settings.leaseName())
                            .withLock(
                                    new LeaseLock(settings.leaseNamespace(), settings.leaseName(), settings.brokerId()))
                            .withLeaseDuration(Duration.ofSeconds(15))
                            .withRenewDeadline(Duration.ofSeconds(10))
                            .withRetryPeriod(Duration.ofSeconds(2))
                            .withReleaseOnCancel(true)
                            .withLeaderCallbacks(new LeaderCallbacks(
                                    () -> coordinator.leading(true, leaderTerm()),
                                    () -> coordinator.leading(false),
                                    leader -> LOG.info("broker leader is {}", leader)))
                            .build())
                    .build()
                    .start();
        }
        LOG.info(
                "broker {} started (topics {}.*, federation label {})",
                settings.brokerId(),
                settings.topicPrefix(),
                settings.federationLabel());
    }

    /** The leader term: how often the Lease changed hands, read just after taking it. */
    private long leaderTerm() {
        try {
            Lease lease = hubClient
                    .resources(Lease.class)
                    .inNamespace(settings.leaseNamespace())
                    .withName(settings.leaseName())
                    .get();
            Integer transitions = lease == null || lease.getSpec() == null
                    ? null
                    : lease.getSpec().getLeaseTransitions();
            return transitions == null ? 0 : transitions;
        } catch (RuntimeException e) {
            LOG.warn("cannot read the Lease's transitions for the leader term: {}", e.toString());
            return 0;
        }
    }

    /** Starts watching the hub; while it cannot be reached, tries again every 5 s (the rest of the broker keeps running). */
    private void watchHub() {
        try {
            watch.start();
            LOG.info("watching the hub at {}", hubClient.getMasterUrl());
        } catch (RuntimeException e) {
            LOG.warn(
                    "the hub at {} cannot be watched yet ({}); trying again in 5 s",
                    hubClient.getMasterUrl(),
                    e.getMessage());
            hubSync.schedule(this::watchHub, 5, TimeUnit.SECONDS);
        }
    }

    public boolean watchingHub() {
        return watch != null && watch.started();
    }

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

    public BrokerSettings settings() {
        return settings;
    }

    /** The catalog with the hub's Karta definitions over it, as the broker interprets now. */
    public Definitions definitions() {
        return watch == null ? definitions : watch.definitions();
    }

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
        if (election != null) {
            election.cancel(true);
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
