package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.broker.kafka.Records.Read;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the broker makes of one record, from its topic, key and value alone: a record on an agent's topic
 * speaks for the cluster the topic names, and one claiming another cluster is refused. Records are
 * written by hand, as a compromised agent could write them.
 */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class RecordsTest {
    static final String A_CLUSTER = "cartograph.from.gpu-a.cluster";
    static final String A_WORKLOADS = "cartograph.from.gpu-a.workloads";
    static final String A_EVENTS = "cartograph.from.gpu-a.events";

    final Records records = new Records(new Topics("cartograph"));

    static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    static String summary(String cluster) {
        return """
                {"schema":1,"type":"cluster","cluster":"%s","labels":{},"agentVersion":"0.1.0",
                 "incarnation":"i-1","sequence":7,"heartbeat":"2026-12-03T08:00:00Z","nodes":[],"shapes":[],"placements":[]}
                """.formatted(cluster);
    }

    static String result(String cluster) {
        return """
                {"schema":1,"type":"result","cluster":"%s","placementId":"p-1","epoch":1,"command":"apply",
                 "outcome":"APPLIED","reason":"","at":"2026-12-03T08:00:00Z"}
                """.formatted(cluster);
    }

    @Test
    void aClusterSummaryOnAnotherClustersTopicIsRefusedNamingBoth() {
        assertThat(records.read(A_CLUSTER, "gpu-b", bytes(summary("gpu-b"))))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.cluster claims cluster gpu-b"));
    }

    @Test
    void aClusterSummaryOnItsOwnTopicIsDeliveredAndItsCommandTopicAskedFor() {
        Read read = records.read(A_CLUSTER, "gpu-a", bytes(summary("gpu-a")));
        assertThat(read).isInstanceOfSatisfying(Read.Deliver.class, d -> {
            assertThat(d.member()).contains("gpu-a");
            assertThat(((Input.Cluster) d.input()).summary().cluster()).isEqualTo("gpu-a");
            assertThat(((Input.Cluster) d.input()).summary().sequence()).isEqualTo(7);
        });
    }

    @Test
    void aWorkloadWhoseKeyNamesAnotherClusterIsRefusedEvenAsATombstone() {
        // a tombstone could delete another cluster's workload from the broker's state
        assertThat(records.read(A_WORKLOADS, "gpu-b/ml/batch/Job/train", null))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.workloads claims cluster gpu-b"));
        assertThat(records.read(A_WORKLOADS, "gpu-a/ml/batch/Job/train", null))
                .isEqualTo(new Read.Deliver(
                        new Input.Workload(new WorkloadKey("gpu-a", "ml", "batch", "Job", "train"), Optional.empty()),
                        Optional.empty()));
    }

    @Test
    void aWorkloadSummaryClaimingAnotherClusterUnderItsOwnKeyIsRefused() {
        WorkloadSummary forged = workload(new WorkloadKey("gpu-b", "ml", "batch", "Job", "train"));
        assertThat(records.read(A_WORKLOADS, "gpu-a/ml/batch/Job/train", Wire.encode(forged)))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.workloads claims cluster gpu-b"));
        WorkloadSummary own = workload(new WorkloadKey("gpu-a", "ml", "batch", "Job", "train"));
        assertThat(records.read(A_WORKLOADS, "gpu-a/ml/batch/Job/train", Wire.encode(own)))
                .isInstanceOf(Read.Deliver.class);
    }

    @Test
    void aCommandResultClaimingAnotherClusterIsRefused() {
        assertThat(records.read(A_EVENTS, "p-1", bytes(result("gpu-b"))))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.events claims cluster gpu-b"));
        assertThat(records.read(A_EVENTS, "p-1", bytes(result("gpu-a"))))
                .isInstanceOfSatisfying(Read.Deliver.class, d -> {
                    assertThat(((Input.Result) d.input()).result().cluster()).isEqualTo("gpu-a");
                    assertThat(d.member()).isEmpty();
                });
    }

    @Test
    void undecodableRecordsArePoisonWithTheCodecsReason() {
        assertThat(records.read(A_CLUSTER, "gpu-a", bytes("not json"))).isInstanceOf(Read.Poison.class);
        assertThat(records.read(A_WORKLOADS, "no-slashes", bytes("{}")))
                .isEqualTo(new Read.Poison("key 'no-slashes' is not cluster/namespace/group/kind/name"));
        assertThat(records.read("cartograph.placements", "uid-1", bytes("not json")))
                .isInstanceOf(Read.Poison.class);
    }

    @Test
    void tombstonesOfSummariesAndTopicsNoAgentOwnsAreSkipped() {
        assertThat(records.read(A_CLUSTER, "gpu-a", null)).isEqualTo(new Read.Skip());
        // the old shared topic is nobody's: what is written there is not read as anyone's
        assertThat(records.read("cartograph.clusters", "gpu-b", bytes(summary("gpu-b"))))
                .isEqualTo(new Read.Skip());
        assertThat(records.read("cartograph.from.gpu.a.cluster", "gpu", bytes(summary("gpu"))))
                .isEqualTo(new Read.Skip());
    }

    static WorkloadSummary workload(WorkloadKey key) {
        return new WorkloadSummary(
                key,
                "batch/v1",
                "i-1",
                1,
                Instant.parse("2026-12-03T08:00:00Z"),
                Optional.empty(),
                "Running",
                List.of("Running"),
                1,
                ResourceList.EMPTY,
                1,
                List.of(),
                NullNode.getInstance());
    }
}
