package dev.cartograph.local.fault;

import dev.cartograph.local.fault.net.TcpProxy;
import dev.cartograph.mock.fault.ActiveFault;
import dev.cartograph.mock.fault.Fault;
import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.fault.RequestMatch;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.kafka.TopicMaker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a plan's kills and faults on its own thread, at their moments: SIGKILL, then a new process after the
 * planned down time (a killed broker leader is replaced at once and the standby takes the Lease); SIGSTOP, then
 * SIGCONT; an API server answering 429 and 503 for a while; every watch of an API server ended and its history
 * compacted; a {@link Link} cut one way or both, then healed; the placements topic deleted and made again. At most one Kafka node is down at a time, and a Kafka node is killed only once every partition is fully
 * in sync again, so the kills test failover, not the loss of a majority (which only pauses writes). Thread-safe.
 */
final class Chaos implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Chaos.class);

    /** A kill that happened: what, which process, when (ms since the suite's start), and whether its restart is done. */
    record Executed(Plan.Target target, String process, long atMillis, long downFor) {}

    private final Plan plan;
    private final BrokerReplicas brokers;
    private final Agents agents;
    private final KafkaNodes kafka;
    private final Clusters clusters;
    private final MachineClocks clocks;
    private final long t0;
    private final Timeline timeline;
    private final List<Executed> executed = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    /** The Kafka nodes stopped now by {@link Plan.Target#STALL_KAFKA}: no node is killed meanwhile. */
    private final java.util.Set<Integer> stalledKafka = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final List<ConsumerRecord<String, byte[]>> lostRecords = Collections.synchronizedList(new ArrayList<>());
    private final ScheduledExecutorService restarts =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "chaos-restarts"));
    private final Thread thread;

    Chaos(
            Plan plan,
            BrokerReplicas brokers,
            Agents agents,
            KafkaNodes kafka,
            Clusters clusters,
            MachineClocks clocks,
            long t0,
            Timeline timeline) {
        this.clusters = clusters;
        this.clocks = clocks;
        this.timeline = timeline;
        this.plan = plan;
        this.brokers = brokers;
        this.agents = agents;
        this.kafka = kafka;
        this.t0 = t0;
        this.thread = new Thread(this::run, "chaos");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try {
            for (Plan.Kill kill : plan.kills()) {
                sleepUntil(kill.atMillis());
                try {
                    execute(kill);
                } catch (RuntimeException e) { // one fault that could not be made does not end the others
                    LOG.error("fault suite: {} at {} ms could not be made", kill.target(), now(), e);
                    note(kill.target() + " at " + now() + " ms could not be made: " + e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void execute(Plan.Kill kill) throws InterruptedException {
        switch (kill.target()) {
            case BROKER_LEADER -> {
                if (!await(Duration.ofSeconds(40), () -> brokers.leader().isPresent())) {
                    note("no live broker leader within 40 s at " + now() + " ms: broker kill skipped");
                    return;
                }
                Optional<String> killed = brokers.killLeader();
                killed.ifPresent(k -> record(kill, k));
            }
            case AGENT -> {
                String killed = agents.kill(kill.which());
                record(kill, killed);
                restarts.schedule(
                        () -> {
                            agents.start(kill.which());
                            timeline.add("started the agent of " + kill.which() + " again");
                        },
                        kill.downFor(),
                        TimeUnit.MILLISECONDS);
            }
            case KAFKA_NODE -> {
                int id = Integer.parseInt(kill.which());
                if (!await(Duration.ofSeconds(40), () -> stalledKafka.isEmpty())) {
                    note("Kafka still stalled 40 s later at " + now() + " ms: node " + id + " killed anyway");
                }
                if (!await(Duration.ofSeconds(60), this::allKafkaNodesReady)
                        || !kafka.awaitInSync(Duration.ofSeconds(60))) {
                    note("Kafka not fully in sync within 60 s at " + now() + " ms: node " + id + " killed anyway");
                }
                kafka.kill(id);
                record(kill, "kafka node " + id);
                restarts.schedule(
                        () -> {
                            kafka.restart(id);
                            timeline.add("started kafka node " + id + " again");
                        },
                        kill.downFor(),
                        TimeUnit.MILLISECONDS);
            }
            case PAUSE_AGENT -> {
                ChildJvm agent = agents.of(kill.which());
                agent.signal("STOP");
                record(kill, agent + " paused");
                restarts.schedule(() -> resume(agent), kill.downFor(), TimeUnit.MILLISECONDS);
            }
            case PAUSE_LEADER -> {
                if (leaderSlot(kill).isEmpty()) {
                    return;
                }
                Optional<ChildJvm> leader = brokers.leader();
                if (leader.isEmpty()) {
                    note("the broker leader went at " + now() + " ms: pause skipped");
                    return;
                }
                leader.get().signal("STOP");
                record(kill, leader.get() + " paused");
                restarts.schedule(() -> resume(leader.get()), kill.downFor(), TimeUnit.MILLISECONDS);
            }
            case MEMBER_API, HUB_API -> {
                MockApiServer server =
                        kill.which().equals("hub") ? clusters.hubServer() : clusters.memberServer(kill.which());
                RequestMatch match = RequestMatch.any(); // on the hub, the leader's Lease renewals too (issue 34)
                Duration d = Duration.ofMillis(kill.downFor());
                long seed = plan.seed() ^ kill.atMillis();
                server.faults()
                        .add(FaultRule.on(match, Fault.throttle(1))
                                .named("chaos-429")
                                .withProbability(0.4, seed)
                                .forDuration(d));
                server.faults()
                        .add(FaultRule.on(match, Fault.serviceUnavailable("chaos: the API server is overloaded"))
                                .named("chaos-503")
                                .withProbability(0.1, seed + 1)
                                .forDuration(d));
                record(kill, kill.which() + " API server: 40% 429, 10% 503 for " + d.toSeconds() + " s");
            }
            case PARTITION_AGENT -> partition(kill, clusters.agentLink(kill.which()));
            case PARTITION_AGENT_KAFKA -> partition(kill, kafka.link(kill.which()));
            case PARTITION_LEADER_KAFKA, PARTITION_LEADER_HUB -> {
                OptionalInt slot = leaderSlot(kill);
                if (slot.isEmpty()) {
                    return;
                }
                partition(
                        kill,
                        kill.target() == Plan.Target.PARTITION_LEADER_KAFKA
                                ? kafka.link(BrokerReplicas.client(slot.getAsInt()))
                                : clusters.brokerHubLink(slot.getAsInt()));
            }
            case TOPIC_RECREATE -> {
                if (!await(Duration.ofSeconds(40), () -> stalledKafka.isEmpty())) {
                    note("Kafka still stalled 40 s later at " + now() + " ms: placements topic made again anyway");
                }
                recreatePlacements(kill);
            }
            case STALL_KAFKA -> stallKafka(kill);
            case CLOCK_STEP -> stepClock(kill);
            case OLDER_STANDBY -> olderStandby(kill);
            case WATCH_EXPIRY -> {
                MockApiServer server =
                        kill.which().equals("hub") ? clusters.hubServer() : clusters.memberServer(kill.which());
                int ended = server.faults().expireWatches();
                long compacted = server.faults().compact();
                record(
                        kill,
                        kill.which() + " API server: " + ended + " watches ended, history compacted below "
                                + compacted);
            }
        }
    }

    /**
     * Cuts both broker slots off from Kafka, waits until no transaction is open on the placements topic, keeps what it
     * holds then (for the history: it was durable), deletes and creates the topic again, heals, and kills the leader
     * 15 s later (by then it has found the topic made again and written its records there, or not: either way the new
     * leader must not place a running gang again).
     */
    private void recreatePlacements(Plan.Kill kill) throws InterruptedException {
        List<Link> brokerLinks =
                BrokerReplicas.clients().stream().map(kafka::link).toList();
        brokerLinks.forEach(Link::cut);
        try {
            // what was on its way lands, or is held back; a transaction left open is aborted after its timeout (15 s)
            if (!kafka.awaitSettled(KafkaJournal.TOPICS.placements(), Duration.ofSeconds(30))) {
                note("a transaction on the placements topic still open 30 s after the brokers were cut off");
            }
            List<ConsumerRecord<String, byte[]>> before = KafkaJournal.read(kafka.bootstrapServers());
            lostRecords.addAll(KafkaJournal.placements(before));
            kafka.recreate(TopicMaker.spec(
                    KafkaJournal.TOPICS.placements(), TopicMaker.Cleanup.COMPACT, TopicSettings.DEFAULTS));
        } finally {
            brokerLinks.forEach(Link::heal);
        }
        record(kill, "the placements topic (" + lostRecords.size() + " records) deleted and created again empty");
        restarts.schedule(
                () -> {
                    Optional<String> killed = brokers.killLeader();
                    timeline.add("after the placements topic was made again, killed the leader: "
                            + killed.orElse("none live"));
                },
                15_000,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Stops two Kafka nodes (SIGSTOP) and resumes them after the kill's down time: a majority stalled past the
     * transaction timeout. A node that is down already (killed, not yet back) is stopped once it is back.
     */
    private void stallKafka(Plan.Kill kill) throws InterruptedException {
        List<Integer> ids = java.util.Arrays.stream(kill.which().split(","))
                .map(Integer::valueOf)
                .toList();
        if (!await(Duration.ofSeconds(40), this::allKafkaNodesReady)) {
            note("a Kafka node still down 40 s later at " + now() + " ms: stall goes ahead");
        }
        stalledKafka.addAll(ids);
        for (int id : ids) {
            try {
                kafka.signal(id, "STOP");
            } catch (RuntimeException e) {
                note("could not stop kafka node " + id + ": " + e.getMessage());
            }
        }
        record(kill, "kafka nodes " + kill.which() + " stopped");
        restarts.schedule(
                () -> {
                    for (int id : ids) {
                        try {
                            kafka.signal(id, "CONT");
                        } catch (RuntimeException e) {
                            note("could not resume kafka node " + id + ": " + e.getMessage());
                        }
                    }
                    stalledKafka.clear();
                    timeline.add("resumed kafka nodes " + kill.which());
                },
                kill.downFor(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Steps a machine's wall clock by the kill's step and restarts the service on it, then steps the clock back after
     * the kill's down time. The services time everything on a clock that a step while they run does not move
     * ({@code SteadyClock}), so the restart is what makes the step count: the new process runs skewed by the step for
     * as long as it lives — a standby minutes ahead of the leader, an agent minutes behind its predecessor (issue 34).
     */
    private void stepClock(Plan.Kill kill) throws InterruptedException {
        Duration step = Duration.ofMillis(Long.parseLong(kill.detail()));
        String restarted;
        if (kill.which().equals("leader") || kill.which().equals("standby")) {
            OptionalInt leader = leaderSlot(kill);
            if (leader.isEmpty()) {
                return;
            }
            int slot = kill.which().equals("leader") ? leader.getAsInt() : 1 - leader.getAsInt();
            clocks.step(BrokerReplicas.client(slot), step);
            restarted = brokers.restart(slot);
            schedule(kill, BrokerReplicas.client(slot));
        } else {
            clocks.step(kill.which(), step);
            restarted = agents.kill(kill.which());
            agents.start(kill.which());
            schedule(kill, kill.which());
        }
        record(kill, restarted + " restarted on a clock stepped " + step.toMillis() + " ms (" + kill.which() + ")");
    }

    /** Replaces the standby by an older build, and kills the leader after the kill's down time. */
    private void olderStandby(Plan.Kill kill) throws InterruptedException {
        OptionalInt leader = leaderSlot(kill);
        if (leader.isEmpty()) {
            return;
        }
        String replaced = brokers.restartOlder(1 - leader.getAsInt());
        record(kill, replaced + " (standby) replaced by the older build");
        restarts.schedule(
                () -> {
                    Optional<String> killed = brokers.killLeader();
                    timeline.add("killed the leader so that the older build leads: " + killed.orElse("none live"));
                },
                kill.downFor(),
                TimeUnit.MILLISECONDS);
    }

    /** The leader's slot, waiting up to 40 s for one (after a leader kill the Lease takes 15 s to pass); noted if none. */
    private OptionalInt leaderSlot(Plan.Kill kill) throws InterruptedException {
        if (!await(Duration.ofSeconds(40), () -> brokers.leaderSlot().isPresent())) {
            note("no live broker leader within 40 s at " + now() + " ms: " + kill.target() + " skipped");
            return OptionalInt.empty();
        }
        return brokers.leaderSlot();
    }

    /** Steps {@code machine}'s clock back after the kill's down time (what runs there keeps the clock it started on). */
    private void schedule(Plan.Kill kill, String machine) {
        restarts.schedule(
                () -> {
                    clocks.step(machine, Duration.ZERO);
                    timeline.add("stepped the clock of " + machine + " back");
                },
                kill.downFor(),
                TimeUnit.MILLISECONDS);
    }

    /** The placement records the topic held when it was deleted: durable once, gone since. */
    List<ConsumerRecord<String, byte[]>> lostRecords() {
        return List.copyOf(lostRecords);
    }

    /** Cuts {@code link} the kill's way, and heals it after the kill's down time. */
    private void partition(Plan.Kill kill, Link link) {
        if (kill.detail().equals("both")) {
            link.cut();
        } else {
            link.cut(TcpProxy.Direction.valueOf(kill.detail()));
        }
        record(kill, link + " cut (" + kill.detail() + ")");
        restarts.schedule(
                () -> {
                    link.heal();
                    timeline.add("healed " + link);
                },
                kill.downFor(),
                TimeUnit.MILLISECONDS);
    }

    /** SIGCONT, as far as the process is still there (it may have been killed while paused). */
    private void resume(ChildJvm process) {
        try {
            process.signal("CONT");
            timeline.add("resumed " + process);
        } catch (RuntimeException e) {
            note("could not resume " + process + ": " + e.getMessage());
        }
    }

    private boolean allKafkaNodesReady() {
        for (int id = 1; id <= KafkaNodes.SIZE; id++) {
            if (!kafka.ready(id)) {
                return false;
            }
        }
        return true;
    }

    private void record(Plan.Kill kill, String process) {
        Executed e = new Executed(kill.target(), process, now(), kill.downFor());
        executed.add(e);
        timeline.add("killed " + process + " (" + kill.target() + ")");
        LOG.info(
                "fault suite: killed {} ({}) at {} ms, down {} ms",
                process,
                kill.target(),
                e.atMillis(),
                kill.downFor());
    }

    private void note(String what) {
        notes.add(what);
        timeline.add(what);
    }

    /** Waits until every kill is done, every restart has been started, and the API servers' faults have run out. */
    void awaitDone(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        restarts.shutdown();
        if (!restarts.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS) || thread.isAlive()) {
            throw new IllegalStateException("the kills and restarts did not finish within " + timeout);
        }
        // an API server's 429s and 503s last their own time: the faults have healed once those have run out too
        List<MockApiServer> servers = new ArrayList<>();
        servers.add(clusters.hubServer());
        clusters.names().forEach(name -> servers.add(clusters.memberServer(name)));
        if (!await(
                timeout,
                () -> servers.stream()
                        .allMatch(s -> s.faults().active().stream().noneMatch(ActiveFault::isActive)))) {
            throw new IllegalStateException("the API servers' faults did not run out within " + timeout);
        }
    }

    List<Executed> executed() {
        return List.copyOf(executed);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    private long now() {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private void sleepUntil(long atMillis) throws InterruptedException {
        long wait = atMillis - now();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private static boolean await(Duration timeout, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(200);
        }
        return true;
    }

    @Override
    public void close() {
        thread.interrupt();
        restarts.shutdownNow();
    }
}
