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
        KAFKA_NODE
    }

    record Submission(Gang gang, long atMillis) {}

    record Deletion(String gang, long atMillis) {}

    /**
     * @param which   the agent's cluster, the Kafka node's id; unused for the broker leader (whoever holds the Lease then)
     * @param downFor how long before it is started again (a broker replica is replaced at once: the standby takes over)
     */
    record Kill(Target target, String which, long atMillis, long downFor) {}

    /**
     * @param gangs       how many gangs, submitted at uniformly random moments of the window
     * @param windowMs    the submission window; kills fall within it
     * @param clusters    the members (an agent to kill is one of them)
     * @param kafkaNodes  Kafka node ids are 1..kafkaNodes
     */
    static Plan draw(long seed, int gangs, long windowMs, List<String> clusters, int kafkaNodes) {
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
        return new Plan(seed, submissions, deletions, kills(random, windowMs, clusters, kafkaNodes));
    }

    /** 4–6 kills, each kind at least once, one per equal slot of the window after its first 6 s. */
    private static List<Kill> kills(Random random, long windowMs, List<String> clusters, int kafkaNodes) {
        int count = 4 + random.nextInt(3);
        List<Target> targets = new ArrayList<>(List.of(Target.values()));
        while (targets.size() < count) {
            targets.add(Target.values()[random.nextInt(Target.values().length)]);
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
                    });
        }
        return kills;
    }
}
