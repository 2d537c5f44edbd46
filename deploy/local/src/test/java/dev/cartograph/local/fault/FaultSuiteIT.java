package dev.cartograph.local.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.hub.ClusterObjects;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.local.fault.history.Checker;
import dev.cartograph.local.fault.history.Durable;
import dev.cartograph.local.fault.history.History;
import dev.cartograph.local.fault.history.Violation;
import dev.cartograph.mock.fleet.FleetProfile;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fault suite (issue 11): gangs submitted to the hub, some deleted again, while the broker leader, an agent
 * and a Kafka node are killed with SIGKILL at seeded moments; then, from the member clusters' own stores and the
 * hub: every gang placed exactly once or waiting with a reason, none ever running on two clusters at once, every
 * deleted gang gone from the members and the hub. The broker (two replicas, leader election on a hub Lease), the
 * agents and three Kafka nodes (replication factor 3, {@code min.insync.replicas} 2) are child JVMs; the hub and the
 * members (mock API servers) with their simulated kubelets stay in the test JVM. Figures and the reproducing
 * command: docs/reliability.md. {@code -Dcartograph.fault.seed=N} replays a plan; logs of every process land in
 * {@code target/fault-suite/seed-N/} (a later run of the same seed in {@code seed-N-run2/} and so on). Nothing is
 * run again on failure: the seed it prints replays the plan.
 */
@Timeout(420)
class FaultSuiteIT {
    static final Duration HEARTBEAT = Duration.ofSeconds(1);
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(8);
    /** Above any agent's time down here (at most 4 s, plus its start), so no cluster is failed over: see docs/reliability.md. */
    static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

    static final Duration BATCH_RUN_TIME = Duration.ofSeconds(20);
    static final Duration SETTLE_LIMIT = Duration.ofSeconds(120);
    static final long WINDOW_MS = 60_000;

    /**
     * One run, or with {@code -Dfault.seeds=N} a soak of N runs (seeds {@code seed}, {@code seed+1}…; hours: run it
     * outside CI with {@code -Djunit.jupiter.execution.timeout.mode=disabled}), whose totals go to
     * {@code target/fault-suite/soak-<seed>.txt}; every run's violations are reported, none is run again.
     */
    @Test
    void gangsSubmittedWhileTheBrokerLeaderAnAgentAndAKafkaNodeAreKilledArePlacedOnceOrWaitAndDeletedOnesAreGone()
            throws Exception {
        long first = Long.getLong("cartograph.fault.seed", System.nanoTime());
        int gangs = Integer.getInteger("cartograph.fault.gangs", 60);
        int runs = Integer.getInteger("fault.seeds", 1);
        Soak soak = new Soak(first);
        for (int i = 0; i < runs; i++) {
            Figures f = run(first + i, gangs);
            soak.add(f);
            if (runs > 1) {
                soak.write(Path.of("target", "fault-suite", "soak-" + first + ".txt"));
            }
        }
        if (runs > 1) {
            System.out.println(soak);
        }
        for (Figures f : soak.runs()) {
            String replay = "replay with -Dcartograph.fault.seed=" + f.seed();
            assertThat(f.kills())
                    .as("kills done: %s; notes %s (%s)", f.kills(), f.notes(), replay)
                    .extracting(Chaos.Executed::target)
                    .containsAll(Plan.Target.KILLS);
            assertThat(f.violations())
                    .as(
                            "invariants I1-I5 over the whole run (%s; history in %s)",
                            replay, f.dir().resolve("history.json"))
                    .isEmpty();
            assertThat(f.verdict().holds())
                    .as(
                            "I6: every gang placed once, waiting with a reason, or deleted and gone, %d ms after the last"
                                    + " restart (%s):%n%s(logs in %s)",
                            f.settleMillis(), replay, f, f.dir().resolve("logs"))
                    .isTrue();
        }
    }

    /** One run of the suite from its seed: the fleet started, the plan carried out, the history checked. */
    private static Figures run(long seed, int gangs) throws Exception {
        Path dir = freshDirectory(Path.of("target", "fault-suite").toAbsolutePath(), "seed-" + seed);
        Path logs = dir.resolve("logs");
        System.out.printf(
                "fault suite: seed %d (replay with -Dcartograph.fault.seed=%d); logs in %s%n", seed, seed, logs);
        long started = System.nanoTime();
        Classpath classpath = Classpath.snapshot(dir.resolve("classpath"));
        MachineClocks clocks = new MachineClocks(dir.resolve("clocks"));
        java.util.Optional<Classpath> older =
                OldBuild.classpath(Path.of("target").toAbsolutePath());
        try (Clusters clusters = Clusters.start(FleetProfile.defaultProfile(), dir, BATCH_RUN_TIME);
                KafkaNodes kafka =
                        KafkaNodes.start(dir.resolve("kafka"), logs, classpath, kafkaClients(clusters.names()));
                BrokerReplicas brokers = new BrokerReplicas(clusters, kafka, logs, classpath, clocks, older);
                Agents agents = new Agents(clusters, kafka, logs, classpath, clocks)) {
            agents.startAll(); // while Kafka starts: an agent waits for Kafka and for its command topic
            kafka.awaitBrokers(KafkaNodes.SIZE, Duration.ofSeconds(120));
            brokers.startAll();
            Eventually.until(
                    Duration.ofSeconds(150),
                    () -> brokers.leader().isPresent()
                            && readyClusters(clusters) == clusters.names().size(),
                    () -> "a broker leader and every cluster Ready on the hub; logs in " + logs);
            long upMillis = millisSince(started);
            Plan plan = Plan.draw(seed, gangs, WINDOW_MS, clusters.names(), KafkaNodes.SIZE, faults());
            MemberStores stores = new MemberStores(clusters);
            long t0 = System.nanoTime();
            Timeline timeline = new Timeline(t0);
            List<Verdict.Submitted> submitted;
            List<Chaos.Executed> kills;
            List<String> notes;
            try (Recorder recorder = new Recorder(clusters, Duration.ofMillis(200));
                    Chaos chaos = new Chaos(plan, brokers, agents, kafka, clusters, clocks, t0, timeline)) {
                recorder.start();
                chaos.start();
                Workload workload = new Workload(clusters.hub(), plan, t0, timeline);
                submitted = workload.run();
                chaos.awaitDone(Duration.ofSeconds(120));
                kills = chaos.executed();
                notes = chaos.notes();
                kafka.awaitBrokers(KafkaNodes.SIZE, Duration.ofSeconds(90));
                long settleFrom = System.nanoTime();
                Verdict verdict = settle(clusters, stores, submitted);
                long settleMillis = millisSince(settleFrom);
                recorder.close();
                History history = history(kafka, chaos.lostRecords(), dir, recorder, workload);
                List<Violation> violations = Checker.check(history);
                timeline.write(dir.resolve("timeline.txt"));
                Figures figures = new Figures(
                        seed,
                        dir,
                        submitted,
                        kills,
                        verdict,
                        violations,
                        history.samples().size(),
                        upMillis,
                        settleMillis,
                        millisSince(started),
                        notes);
                figures.write(dir.resolve("summary.txt"));
                System.out.println(figures);
                return figures;
            }
        }
    }

    /**
     * The other faults a run draws from: all of them, or those {@code -Dcartograph.fault.faults=PARTITION_AGENT,HUB_API}
     * names (to replay one kind; the seed then draws another plan).
     */
    private static List<Plan.Target> faults() {
        String named = System.getProperty("cartograph.fault.faults", "");
        List<Plan.Target> all = named.isBlank()
                ? Plan.Target.FAULTS
                : java.util.Arrays.stream(named.split(","))
                        .map(String::strip)
                        .map(Plan.Target::valueOf)
                        .toList();
        return System.getProperty(OldBuild.PROPERTY, "").isBlank()
                ? all.stream().filter(t -> t != Plan.Target.OLDER_STANDBY).toList()
                : all;
    }

    /** Who reaches Kafka through a link of its own: each broker slot and each member's agent. */
    private static List<String> kafkaClients(List<String> members) {
        List<String> clients = new java.util.ArrayList<>(BrokerReplicas.clients());
        clients.addAll(members);
        return clients;
    }

    /** Reads the verdict until it holds (the fleet has settled) or the limit passes; returns the last one. */
    private static Verdict settle(Clusters clusters, MemberStores stores, List<Verdict.Submitted> submitted)
            throws InterruptedException {
        long end = System.nanoTime() + SETTLE_LIMIT.toNanos();
        while (true) {
            Verdict v;
            try {
                v = Verdict.read(clusters.hub(), stores, submitted);
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                // the test's own read met an API server's answer (a 429, a 503): it reads again, it judges nothing
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(500);
                continue;
            }
            if (v.holds() || System.nanoTime() > end) {
                return v;
            }
            Thread.sleep(500);
        }
    }

    /**
     * The run's history: the recorder's samples, the committed placement records and commands, the user's deletions;
     * written beside the logs ({@code history.json}, and the journal as text), to be checked again offline.
     */
    private static History history(
            KafkaNodes kafka, List<ConsumerRecord<String, byte[]>> lost, Path dir, Recorder recorder, Workload workload)
            throws IOException {
        List<ConsumerRecord<String, byte[]>> records = KafkaJournal.read(kafka.bootstrapServers());
        List<ConsumerRecord<String, byte[]>> all = new java.util.ArrayList<>(lost);
        all.addAll(records);
        all.sort(java.util.Comparator.comparingLong(ConsumerRecord::timestamp));
        KafkaJournal.write(all, dir.resolve("kafka-journal.txt"));
        // the records of a placements topic deleted during the run come first, the new topic's offsets after theirs
        long after = lost.stream().mapToLong(r -> r.offset() + 1).max().orElse(0);
        List<Durable> durable = new java.util.ArrayList<>(KafkaJournal.durable(lost));
        KafkaJournal.durable(records).stream()
                .map(d -> new Durable(
                        d.at(), after + d.offset(), d.uid(), d.epoch(), d.cluster(), d.state(), d.tombstone()))
                .forEach(durable::add);
        History history = new History(recorder.samples(), durable, KafkaJournal.sent(records), workload.deletedAt());
        history.write(dir.resolve("history.json"));
        return history;
    }

    private static long readyClusters(Clusters clusters) {
        return clusters.hub().genericKubernetesResources(ClusterObjects.CLUSTERS).list().getItems().stream()
                .map(GenericKubernetesResource::getAdditionalProperties)
                .filter(p -> p.get("status") instanceof Map<?, ?> s && Boolean.TRUE.equals(s.get("ready")))
                .count();
    }

    static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    /**
     * {@code parent/name}, or {@code name-run2}, {@code -run3}… when an earlier run of the same seed left its
     * directory: a replayed seed's files do not overwrite the failed run's.
     */
    private static Path freshDirectory(Path parent, String name) {
        Path dir = parent.resolve(name);
        for (int run = 2; Files.exists(dir); run++) {
            dir = parent.resolve(name + "-run" + run);
        }
        return dir;
    }

    /** The run in numbers, as docs/reliability.md reports them. */
    record Figures(
            long seed,
            Path dir,
            List<Verdict.Submitted> submitted,
            List<Chaos.Executed> kills,
            Verdict verdict,
            List<Violation> violations,
            long samples,
            long upMillis,
            long settleMillis,
            long totalMillis,
            List<String> notes) {
        Map<Plan.Target, Integer> killsByKind() {
            Map<Plan.Target, Integer> out = new EnumMap<>(Plan.Target.class);
            kills.forEach(k -> out.merge(k.target(), 1, Integer::sum));
            return out;
        }

        /** Gangs neither placed once nor waiting with a reason (the hub naming another cluster than the copy's counts too). */
        long lost() {
            return verdict.count(Verdict.Outcome.LOST) + verdict.count(Verdict.Outcome.HUB_DISAGREES);
        }

        /** Deleted gangs still on a member, or still on the hub (finalizer not removed). */
        long notDeleted() {
            return verdict.count(Verdict.Outcome.DELETE_PENDING);
        }

        long duplicated() {
            return verdict.count(Verdict.Outcome.DUPLICATED) + violations("I2");
        }

        long violations(String invariant) {
            return violations.stream()
                    .filter(v -> v.invariant().equals(invariant))
                    .count();
        }

        void write(Path file) throws IOException {
            Files.writeString(file, toString());
        }

        @Override
        public String toString() {
            List<String> lines = new ArrayList<>();
            lines.add(String.format(
                    "fault suite, seed %d: gangs %d (%d deleted, %d fit nowhere), kills %d %s, lost %d, duplicated %d,"
                            + " deleted but not gone %d",
                    seed,
                    submitted.size(),
                    submitted.stream().filter(Verdict.Submitted::deleted).count(),
                    submitted.stream().filter(s -> s.gang().fitsNowhere()).count(),
                    kills.size(),
                    killsByKind(),
                    lost(),
                    duplicated(),
                    notDeleted()));
            lines.add("  outcomes: " + verdict.counts() + "; violations I1 " + violations("I1") + ", I2 "
                    + violations("I2") + ", I3 " + violations("I3") + ", I4 " + violations("I4") + ", I5 "
                    + violations("I5") + " (" + samples + " samples)");
            lines.add(String.format(
                    "  fleet up in %d ms, settled in %d ms after the last restart, %d ms in all",
                    upMillis, settleMillis, totalMillis));
            kills.forEach(k -> lines.add("  kill " + k));
            notes.forEach(n -> lines.add("  note " + n));
            verdict.nonEmpty().forEach((o, gangs) -> {
                if (o != Verdict.Outcome.PLACED && o != Verdict.Outcome.WAITING && o != Verdict.Outcome.DELETED) {
                    gangs.forEach(g -> lines.add("  " + o + " " + g));
                }
            });
            violations.forEach(v -> lines.add("  " + v));
            return String.join("\n", lines) + "\n";
        }
    }
}
