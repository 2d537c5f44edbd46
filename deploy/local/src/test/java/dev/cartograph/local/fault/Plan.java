package dev.cartograph.local.fault;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The whole run, drawn from one seed: which gangs are submitted when, which are deleted when, and which
 * process is killed when and for how long. The seed fixes the plan, not the interleaving: the processes
 * it kills run at their own pace on a shared machine.
 */
record Plan(long seed, List<Submission> submissions, List<Deletion> deletions, List<Kill> kills) {
    enum Target {
        BROKER_LEADER,
        AGENT,
        KAFKA_NODE,
        /** SIGSTOP of an agent for 5–12 s (past the heartbeat timeout, short of failover), then SIGCONT */
        PAUSE_AGENT,
        /** SIGSTOP of the broker leader for 20–25 s (past its Lease): the standby leads; the old one wakes deposed */
        PAUSE_LEADER,
        /** a member's API server answers half its requests 429 (Retry-After 1 s) or 503 for 8–15 s */
        MEMBER_API,
        /** the hub's API server answers half its requests 429 (Retry-After 1 s) or 503 for 8–15 s, Lease renewals too */
        HUB_API,
        /** every watch on a member or the hub is ended and its history compacted: informers resume with 410 */
        WATCH_EXPIRY,
        /** the link between an agent and its member's API server cut both ways for 5–15 s (Kafka still in reach) */
        PARTITION_AGENT,
        /** an agent cut off from every Kafka node, both ways or one way, for 5–20 s (its API server still in reach) */
        PARTITION_AGENT_KAFKA,
        /**
         * the broker leader cut off from every Kafka node, both ways or one way, for 4–25 s: short of the 15 s
         * transaction timeout or past it (Kafka aborts its open transaction and bumps its producer's epoch)
         */
        PARTITION_LEADER_KAFKA,
        /** the broker leader cut off from the hub, both ways or one way, for 5–20 s: it loses the Lease, or keeps it */
        PARTITION_LEADER_HUB,
        /**
         * the placements topic deleted and created again empty (a restore, a Kafka rebuilt from nothing), the brokers
         * cut off from Kafka meanwhile; the leader killed 15 s later, so the standby builds its state from what is left
         */
        TOPIC_RECREATE,
        /**
         * two of the three Kafka nodes stopped (SIGSTOP) for 18–25 s, past the broker's 15 s transaction timeout, then
         * resumed: no partition takes writes, the controllers have no quorum, an open transaction is aborted and its
         * producer's epoch bumped
         */
        STALL_KAFKA,
        /**
         * the wall clock of one machine — the broker leader's, the standby's, or a member's agent's — stepped 20 s to
         * 6 min ahead or behind and its service restarted (it runs skewed from then on), the clock stepped back 20–40 s
         * later
         */
        CLOCK_STEP,
        /**
         * the standby replaced by a replica of an older build (a rolling upgrade rolled back, or half done) and the
         * leader killed 10–20 s later, so the older build leads from what the newer one wrote; only when the run has an
         * older build ({@code -Dcartograph.fault.old-build=REV}, soaks)
         */
        OLDER_STANDBY;

        /** The process kills, each of which every run has at least once. */
        static final List<Target> KILLS = List.of(BROKER_LEADER, AGENT, KAFKA_NODE);

        /** The other faults, of which every run has some: every target but the kills. */
        static final List<Target> FAULTS = java.util.Arrays.stream(values())
                .filter(t -> !KILLS.contains(t))
                .toList();
    }

    record Submission(Gang gang, long atMillis) {}

    record Deletion(String gang, long atMillis) {}

    /**
     * @param which   the agent's cluster, the Kafka node's id, the member whose API server fails or whose watches
     *                expire ({@code hub} for the hub's); unused for the broker leader (whoever holds the Lease then)
     * @param downFor how long before it is started again, resumed or answers again (a killed broker replica is
     *                replaced at once: the standby takes over)
     * @param detail  which way a partition cuts: {@code both}, or the one direction held back
     *                ({@link dev.cartograph.local.fault.net.TcpProxy.Direction}); for a clock step, the step in ms;
     *                {@code both} for the other faults
     */
    record Kill(Target target, String which, long atMillis, long downFor, String detail) {
        Kill(Target target, String which, long atMillis, long downFor) {
            this(target, which, atMillis, downFor, "both");
        }
    }

    /**
     * @param gangs       how many gangs, submitted at uniformly random moments of the window
     * @param windowMs    the submission window; kills fall within it
     * @param clusters    the members (an agent to kill is one of them)
     * @param kafkaNodes  Kafka node ids are 1..kafkaNodes
     */
    static Plan draw(long seed, int gangs, long windowMs, List<String> clusters, int kafkaNodes) {
        return draw(seed, gangs, windowMs, clusters, kafkaNodes, Target.FAULTS);
    }

    /** As {@link #draw}, the other faults drawn from {@code faults} only (to replay one kind of fault). */
    static Plan draw(long seed, int gangs, long windowMs, List<String> clusters, int kafkaNodes, List<Target> faults) {
        Random random = new Random(seed);
        List<Submission> submissions = new ArrayList<>();
        List<Deletion> deletions = new ArrayList<>();
        for (int i = 0; i < gangs; i++) {
            long at = (long) (random.nextDouble() * windowMs);
            Gang gang = Gang.random(String.format("g%02d", i), random);
            submissions.add(new Submission(gang, at));
            if (random.nextInt(6) == 0) { // one in six is deleted again, 1–25 s later: waiting, just placed, or running
                deletions.add(new Deletion(gang.name(), at + 1_000 + random.nextInt(24_000)));
            }
        }
        submissions.sort(Comparator.comparingLong(Submission::atMillis));
        deletions.sort(Comparator.comparingLong(Deletion::atMillis));
        List<Kill> kills = new ArrayList<>(kills(random, windowMs, clusters, kafkaNodes));
        kills.addAll(faults(random, windowMs, clusters, kafkaNodes, faults));
        kills.sort(Comparator.comparingLong(Kill::atMillis));
        return new Plan(seed, submissions, deletions, kills);
    }

    /** 2–3 other faults of different kinds (fewer when fewer are allowed), at random moments after the window's first 6 s. */
    private static List<Kill> faults(
            Random random, long windowMs, List<String> clusters, int kafkaNodes, List<Target> from) {
        List<Target> kinds = new ArrayList<>(from);
        Collections.shuffle(kinds, random);
        List<Kill> out = new ArrayList<>();
        for (Target t : kinds.subList(0, Math.min(kinds.size(), 2 + random.nextInt(2)))) {
            long at = 6_000 + (long) (random.nextDouble() * (windowMs - 12_000));
            String member = clusters.get(random.nextInt(clusters.size()));
            out.add(
                    switch (t) {
                        case PAUSE_AGENT -> new Kill(t, member, at, 5_000 + random.nextInt(7_000));
                        case PAUSE_LEADER -> new Kill(t, "leader", at, 20_000 + random.nextInt(5_000));
                        case MEMBER_API -> new Kill(t, member, at, 8_000 + random.nextInt(7_000));
                        case HUB_API -> new Kill(t, "hub", at, 8_000 + random.nextInt(7_000));
                        case WATCH_EXPIRY -> new Kill(t, random.nextBoolean() ? "hub" : member, at, 0);
                        case PARTITION_AGENT -> new Kill(t, member, at, 5_000 + random.nextInt(10_000));
                        case PARTITION_AGENT_KAFKA ->
                            new Kill(t, member, at, 5_000 + random.nextInt(15_000), way(random));
                        case PARTITION_LEADER_KAFKA ->
                            new Kill(t, "leader", at, 4_000 + random.nextInt(21_000), way(random));
                        case PARTITION_LEADER_HUB ->
                            new Kill(t, "leader", at, 5_000 + random.nextInt(15_000), way(random));
                        case TOPIC_RECREATE -> new Kill(t, "placements", at, 0);
                        case STALL_KAFKA -> new Kill(t, twoOf(random, kafkaNodes), at, 18_000 + random.nextInt(7_000));
                        case OLDER_STANDBY -> new Kill(t, "standby", at, 10_000 + random.nextInt(10_000));
                        case CLOCK_STEP ->
                            new Kill(
                                    t,
                                    switch (random.nextInt(3)) {
                                        case 0 -> "leader";
                                        case 1 -> "standby";
                                        default -> member;
                                    },
                                    at,
                                    20_000 + random.nextInt(20_000),
                                    Long.toString(
                                            (random.nextBoolean() ? 1 : -1) * (20_000 + random.nextInt(340_000))));
                        default -> throw new IllegalStateException(t.toString());
                    });
        }
        return out;
    }

    /** Two distinct Kafka node ids of 1..{@code nodes}, as {@code "1,3"}. */
    private static String twoOf(Random random, int nodes) {
        int first = 1 + random.nextInt(nodes);
        int second = 1 + (first + random.nextInt(nodes - 1)) % nodes;
        return first + "," + second;
    }

    /** Both ways half the time, else one direction held back. */
    private static String way(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> "CLIENT_TO_SERVER";
            case 1 -> "SERVER_TO_CLIENT";
            default -> "both";
        };
    }

    /** 4–6 kills, each kind of kill at least once, one per equal slot of the window after its first 6 s. */
    private static List<Kill> kills(Random random, long windowMs, List<String> clusters, int kafkaNodes) {
        int count = 4 + random.nextInt(3);
        List<Target> targets = new ArrayList<>(Target.KILLS);
        while (targets.size() < count) {
            targets.add(Target.KILLS.get(random.nextInt(Target.KILLS.size())));
        }
        Collections.shuffle(targets, random);
        long start = 6_000;
        long slot = (windowMs - start) / count;
        List<Kill> kills = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long at = start + i * slot + (long) (random.nextDouble() * slot * 0.7);
            Target t = targets.get(i);
            kills.add(
                    switch (t) {
                        case BROKER_LEADER -> new Kill(t, "leader", at, 0);
                        case AGENT ->
                            new Kill(
                                    t,
                                    clusters.get(random.nextInt(clusters.size())),
                                    at,
                                    1_000 + random.nextInt(3_000));
                        case KAFKA_NODE ->
                            new Kill(
                                    t,
                                    String.valueOf(1 + random.nextInt(kafkaNodes)),
                                    at,
                                    2_000 + random.nextInt(6_000));
                        default -> throw new IllegalStateException(t + " is not a kill");
                    });
        }
        return kills;
    }
}
