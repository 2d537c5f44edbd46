package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.broker.kafka.Records.Read;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterRecord;
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

    static String header(String cluster) {
        return """
                {"schema":1,"type":"cluster","cluster":"%s","labels":{},"agentVersion":"0.1.0",
                 "incarnation":"i-1","sequence":7,"heartbeat":"2026-12-03T08:00:00Z","nodes":1,"placements":0}
                """.formatted(cluster);
    }

    static String node(String cluster, String name, String gpus) {
        return """
                {"schema":1,"type":"cluster.node","cluster":"%s","incarnation":"i-1","name":"%s","labels":{},
                 "taints":[],"allocatable":{"nvidia.com/gpu":"%s","pods":"110"}}
                """.formatted(cluster, name, gpus);
    }

    /** The whole-cluster record agents wrote before per-node records. */
    static String oldSummary(String cluster) {
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
    void aClusterHeaderOrNodeOnAnotherClustersTopicIsRefusedNamingBoth() {
        assertThat(records.read(A_CLUSTER, "gpu-b", bytes(header("gpu-b"))))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.cluster claims cluster gpu-b"));
        // under its own key, claiming another cluster inside
        assertThat(records.read(A_CLUSTER, "gpu-a", bytes(header("gpu-b"))))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.cluster claims cluster gpu-b"));
        assertThat(records.read(A_CLUSTER, "node/n1", bytes(node("gpu-b", "n1", "8"))))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.cluster claims cluster gpu-b"));
    }

    @Test
    void aClusterTopicsRecordsOnTheirOwnTopicArePartsOfItsSummary() {
        Read header = records.read(A_CLUSTER, "gpu-a", bytes(header("gpu-a")));
        assertThat(header).isInstanceOfSatisfying(Read.Part.class, p -> {
            assertThat(p.cluster()).isEqualTo("gpu-a");
            assertThat(((ClusterRecord.Header) p.record()).sequence()).isEqualTo(7);
        });
        assertThat(records.read(A_CLUSTER, "node/n1", bytes(node("gpu-a", "n1", "8"))))
                .isInstanceOfSatisfying(
                        Read.Part.class,
                        p -> assertThat(((ClusterRecord.Node) p.record())
                                        .node()
                                        .allocatable()
                                        .gpus())
                                .isEqualTo(8));
        assertThat(records.read(A_CLUSTER, "node/n1", null))
                .isEqualTo(new Read.Part(
                        "gpu-a", new ClusterRecord.Gone(new ClusterRecord.Key(ClusterRecord.Kind.NODE, "n1"))));
    }

    @Test
    void aBadNodeRecordIsPoisonNamingTheClusterNodeAndFieldAndTheNodeIsNoLongerKnown() {
        assertThat(records.read(A_CLUSTER, "node/n1", bytes(node("gpu-a", "n1", "1e30"))))
                .isEqualTo(new Read.Poison(
                        "cluster gpu-a, node n1: node 'n1' allocatable.nvidia.com/gpu = 1000000000000000000000000000000"
                                + " is larger than the ceiling of 1048576 per pod",
                        Optional.of(
                                new Read.Unreadable("gpu-a", new ClusterRecord.Key(ClusterRecord.Kind.NODE, "n1")))));
    }

    @Test
    void theOldWholeClusterRecordIsPoisonSayingToUpgradeTheAgent() {
        assertThat(records.read(A_CLUSTER, "gpu-a", bytes(oldSummary("gpu-a"))))
                .isInstanceOfSatisfying(Read.Poison.class, p -> {
                    assertThat(p.reason()).startsWith("cluster gpu-a, header: a whole-cluster summary");
                    assertThat(p.reason()).endsWith("upgrade this cluster's agent");
                    assertThat(p.unreadable()).isEmpty();
                });
    }

    @Test
    void aWorkloadWhoseKeyNamesAnotherClusterIsRefusedEvenAsATombstone() {
        // a tombstone could delete another cluster's workload from the broker's state
        assertThat(records.read(A_WORKLOADS, "gpu-b/ml/batch/Job/train", null))
                .isEqualTo(new Read.Poison("record on cartograph.from.gpu-a.workloads claims cluster gpu-b"));
        assertThat(records.read(A_WORKLOADS, "gpu-a/ml/batch/Job/train", null))
                .isEqualTo(new Read.Deliver(
                        new Input.Workload(new WorkloadKey("gpu-a", "ml", "batch", "Job", "train"), Optional.empty())));
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
                .isInstanceOfSatisfying(
                        Read.Deliver.class,
                        d -> assertThat(((Input.Result) d.input()).result().cluster())
                                .isEqualTo("gpu-a"));
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
    void aHeaderTombstoneIsPoisonAndTopicsNoAgentOwnsAreSkipped() {
        assertThat(records.read(A_CLUSTER, "gpu-a", null)).isInstanceOf(Read.Poison.class);
        // the old shared topic is nobody's: what is written there is not read as anyone's
        assertThat(records.read("cartograph.clusters", "gpu-b", bytes(header("gpu-b"))))
                .isEqualTo(new Read.Skip());
        assertThat(records.read("cartograph.from.gpu.a.cluster", "gpu", bytes(header("gpu"))))
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
