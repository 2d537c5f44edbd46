package dev.cartograph.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.kafka.Shortfall;
import dev.cartograph.protocol.kafka.TopicMaker.Cleanup;
import dev.cartograph.protocol.kafka.TopologyException;
import dev.cartograph.protocol.kafka.TopologyException.Reason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The agent's own topics against a stand-in for Kafka's admin: what it asks for, and what it says when refused. */
@Timeout(10)
class OwnTopicsTest {
    static final Instant T0 = Instant.parse("2026-12-03T08:00:00Z");

    /** Answers from a script (an exception, or success), recording what it was asked. */
    static final class ScriptedMaker implements OwnTopics.Maker {
        final Deque<TopologyException> failures = new ArrayDeque<>();
        final List<Map<String, Cleanup>> asked = new ArrayList<>();
        boolean closed;

        @Override
        public List<Shortfall> ensure(Map<String, Cleanup> wanted) throws TopologyException {
            asked.add(new LinkedHashMap<>(wanted));
            if (!failures.isEmpty()) {
                throw failures.pop();
            }
            return List.of();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    final ScriptedMaker maker = new ScriptedMaker();
    Instant now = T0;
    final Clock clock = new Clock() {
        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    };

    OwnTopics own() {
        return new OwnTopics(new Topics("cartograph"), "gpu-a", new TopicSettings(3, 2), maker, clock);
    }

    @Test
    void asksForItsThreeTopicsOnlySummariesCompactedAndThenNeverAgain() {
        OwnTopics own = own();
        assertThat(own.ready()).isTrue();
        assertThat(own.ready()).isTrue();
        assertThat(maker.asked)
                .containsExactly(Map.of(
                        "cartograph.from.gpu-a.cluster", Cleanup.COMPACT,
                        "cartograph.from.gpu-a.workloads", Cleanup.COMPACT,
                        "cartograph.from.gpu-a.events", Cleanup.DELETE));
        assertThat(maker.closed)
                .as("the admin client is let go once the topics exist")
                .isTrue();
        assertThat(own.problem()).isEmpty();
    }

    @Test
    void notAllowedToCreateItNamesTheTopicsAndHowAndKeepsTryingUntilAnOperatorMadeThem() {
        TopicAuthorizationException refused =
                new TopicAuthorizationException("Not authorized to access topics: [cartograph.from.gpu-a.cluster]");
        for (int i = 0; i < 3; i++) {
            maker.failures.add(new TopologyException(Reason.NOT_AUTHORIZED, "cannot create topic", refused));
        }
        OwnTopics own = own();

        assertThat(own.ready()).isFalse();
        assertThat(own.problem())
                .hasValueSatisfying(why -> assertThat(why)
                        .isEqualTo(
                                "the agent of cluster gpu-a may not create its topics (Kafka: Not authorized to access"
                                        + " topics: [cartograph.from.gpu-a.cluster]). An operator must create"
                                        + " cartograph.from.gpu-a.cluster (compact), cartograph.from.gpu-a.workloads (compact),"
                                        + " cartograph.from.gpu-a.events (delete), each with 1 partition, replication factor 3,"
                                        + " min.insync.replicas 2 and unclean.leader.election.enable=false — or allow this agent's"
                                        + " principal CREATE on the topic prefix cartograph.from.gpu-a."));
        // backoff 1 s, then 2 s: not asked again before then
        assertThat(own.ready()).isFalse();
        assertThat(maker.asked).hasSize(1);
        now = T0.plus(Duration.ofSeconds(1));
        assertThat(own.ready()).isFalse();
        assertThat(maker.asked).hasSize(2);
        now = now.plus(Duration.ofMillis(1999));
        assertThat(own.ready()).isFalse();
        assertThat(maker.asked).hasSize(2);
        now = now.plus(Duration.ofMillis(1));
        assertThat(own.ready()).isFalse();
        assertThat(maker.asked).hasSize(3);
        // the operator made them: the next try finds them
        now = now.plus(Duration.ofSeconds(4));
        assertThat(own.ready()).isTrue();
        assertThat(own.problem()).isEmpty();
        assertThat(maker.asked).hasSize(4);
    }

    @Test
    void anUnexpectedFailureIsAProblemToRetryNotACrash() {
        OwnTopics own = new OwnTopics(
                new Topics("cartograph"),
                "gpu-a",
                TopicSettings.SINGLE_BROKER,
                wanted -> {
                    throw new IllegalStateException("admin client closed");
                },
                clock);
        assertThat(own.ready()).isFalse();
        assertThat(own.problem()).hasValueSatisfying(why -> assertThat(why).contains("admin client closed"));
    }
}
