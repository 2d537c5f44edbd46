package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: the broker finds its placements topic deleted, or deleted and created again, on a real Kafka — by the
 * topic's id, since a topic made again under the same name has another — and a topic that is gone is created again.
 */
@Timeout(120)
class PlacementsTopicWatchIT {
    private static final Topics TOPICS = new Topics("w");

    @Test
    void aTopicDeletedAndMadeAgainOrJustDeletedIsReportedOnceAndTheBrokerCanWriteAgain(@TempDir Path tmp)
            throws Exception {
        try (LocalKafka kafka = LocalKafka.start(tmp.resolve("kafka"));
                Topology topology = new Topology(
                        Map.of("bootstrap.servers", kafka.bootstrapServers()), TOPICS, TopicSettings.SINGLE_BROKER);
                Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            topology.ensurePlacements();
            PlacementsTopicWatch watch = new PlacementsTopicWatch(topology);
            assertThat(watch.check()).as("the first look learns the topic").isEmpty();
            assertThat(watch.check()).isEmpty();

            // deleted and created again by someone else: another id under the same name
            admin.deleteTopics(List.of(TOPICS.placements())).all().get(30, TimeUnit.SECONDS);
            awaitGone(admin);
            admin.createTopics(List.of(new NewTopic(TOPICS.placements(), 1, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            awaitListed(admin);
            assertThat(watch.check())
                    .hasValueSatisfying(reason -> assertThat(reason)
                            .startsWith("the placements topic w.placements was deleted and created again (id "));
            assertThat(watch.check()).as("reported once").isEmpty();

            // deleted, and nobody made it again: the watch does, and says so
            admin.deleteTopics(List.of(TOPICS.placements())).all().get(30, TimeUnit.SECONDS);
            awaitGone(admin);
            assertThat(watch.check())
                    .hasValueSatisfying(reason -> assertThat(reason)
                            .startsWith("the placements topic w.placements was gone (id ")
                            .endsWith("it was created again empty"));
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains(TOPICS.placements());
            assertThat(watch.check()).isEmpty();
        }
    }

    private static void awaitListed(Admin admin) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(TOPICS.placements())) {
            assertThat(System.nanoTime()).as("listed within 30 s").isLessThan(end);
            Thread.sleep(100);
        }
        admin.describeTopics(List.of(TOPICS.placements())).allTopicNames().get(30, TimeUnit.SECONDS);
    }

    private static void awaitGone(Admin admin) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(TOPICS.placements())) {
            assertThat(System.nanoTime()).as("deleted within 30 s").isLessThan(end);
            Thread.sleep(100);
        }
    }
}
