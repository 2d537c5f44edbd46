package dev.cartograph.local.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a plan's kills on its own thread, at their moments: SIGKILL, then a new process after the
 * planned down time (a killed broker leader is replaced at once and the standby takes the Lease). At most
 * one Kafka node is down at a time, and a Kafka node is killed only once every partition is fully in sync
 * again, so the kills test failover, not the loss of a majority (which only pauses writes). Thread-safe.
 */
final class Chaos implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Chaos.class);

    /** A kill that happened: what, which process, when (ms since the suite's start), and whether its restart is done. */
    record Executed(Plan.Target target, String process, long atMillis, long downFor) {}

    private final Plan plan;
    private final BrokerReplicas brokers;
    private final Agents agents;
    private final KafkaNodes kafka;
    private final long t0;
    private final Timeline timeline;
    private final List<Executed> executed = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    private final ScheduledExecutorService restarts =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "chaos-restarts"));
    private final Thread thread;

    Chaos(Plan plan, BrokerReplicas brokers, Agents agents, KafkaNodes kafka, long t0, Timeline timeline) {
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
                execute(kill);
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
            default -> throw new IllegalStateException(kill.target().toString());
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

    /** Waits until every kill is done and every restart has been started. */
    void awaitDone(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        restarts.shutdown();
        if (!restarts.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS) || thread.isAlive()) {
            throw new IllegalStateException("the kills and restarts did not finish within " + timeout);
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
