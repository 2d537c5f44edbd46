package dev.cartograph.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.protocol.Topics.AgentTopic;
import dev.cartograph.protocol.Topics.Owned;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class TopicsTest {
    private final Topics topics = new Topics("cartograph");

    @Test
    void everythingAnAgentWritesIsUnderItsOwnPrefix() {
        assertThat(topics.agentPrefix("gpu-a")).isEqualTo("cartograph.from.gpu-a.");
        assertThat(topics.of("gpu-a", AgentTopic.CLUSTER)).isEqualTo("cartograph.from.gpu-a.cluster");
        assertThat(topics.of("gpu-a", AgentTopic.WORKLOADS)).isEqualTo("cartograph.from.gpu-a.workloads");
        assertThat(topics.of("gpu-a", AgentTopic.EVENTS)).isEqualTo("cartograph.from.gpu-a.events");
        assertThat(topics.commands("gpu-a")).isEqualTo("cartograph.commands.gpu-a");
        assertThat(topics.commandsPrefix()).isEqualTo("cartograph.commands.");
        assertThat(topics.agentsPrefix()).isEqualTo("cartograph.from.");
    }

    @Test
    void summariesAreCompactedAndResultsAreNot() {
        assertThat(AgentTopic.CLUSTER.compacted()).isTrue();
        assertThat(AgentTopic.WORKLOADS.compacted()).isTrue();
        assertThat(AgentTopic.EVENTS.compacted()).isFalse();
    }

    @Test
    void aTopicNamesItsOwnerBack() {
        for (AgentTopic t : AgentTopic.values()) {
            assertThat(topics.owner(topics.of("gpu-a", t))).contains(new Owned("gpu-a", t));
        }
    }

    @Test
    void topicsNoAgentOwnsHaveNoOwner() {
        for (String t : List.of(
                "cartograph.placements",
                "cartograph.commands.gpu-a",
                "cartograph.from.gpu-a.placements", // not a kind an agent writes
                "cartograph.from.gpu-a", // no kind
                "cartograph.from.Gpu-A.cluster", // not a DNS label
                "cartograph.from.gpu.a.cluster", // a dot: would be cluster "gpu" writing kind "a.cluster"
                "other.from.gpu-a.cluster")) {
            assertThat(topics.owner(t)).as(t).isEqualTo(Optional.empty());
        }
        assertThat(topics.owner(null)).isEmpty();
    }

    @Test
    void noClustersPrefixCoversAnotherClustersTopics() {
        // hand-picked neighbours: a name that is a prefix of another, with and without '-'
        List<String> clusters = List.of("a", "ab", "a-b", "gpu", "gpu-east", "gpu-east-2");
        for (String mine : clusters) {
            for (String other : clusters) {
                for (AgentTopic t : AgentTopic.values()) {
                    assertThat(topics.of(other, t).startsWith(topics.agentPrefix(mine)))
                            .as("%s's prefix over %s's %s", mine, other, t)
                            .isEqualTo(mine.equals(other));
                }
            }
        }
    }

    @Test
    void clusterNamesAreDnsLabels() {
        assertThat(Topics.validCluster("gpu-east-2")).isTrue();
        assertThat(Topics.validCluster("a".repeat(63))).isTrue();
        for (String bad : List.of("", "a".repeat(64), "gpu.east", "GPU", "-a", "a-", "a_b", "a/b")) {
            assertThat(Topics.validCluster(bad)).as(bad).isFalse();
        }
        assertThat(Topics.validCluster(null)).isFalse();
        assertThatThrownBy(() -> topics.agentPrefix("gpu.east"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cluster name 'gpu.east' cannot name a topic");
    }
}
