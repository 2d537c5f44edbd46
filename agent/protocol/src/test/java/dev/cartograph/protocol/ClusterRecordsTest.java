package dev.cartograph.protocol;

import static dev.cartograph.protocol.WireTest.T;
import static dev.cartograph.protocol.WireTest.h100;
import static dev.cartograph.protocol.WireTest.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterRecord.Gone;
import dev.cartograph.protocol.ClusterRecord.Header;
import dev.cartograph.protocol.ClusterRecord.Key;
import dev.cartograph.protocol.ClusterRecord.Kind;
import dev.cartograph.protocol.ClusterRecord.Node;
import dev.cartograph.protocol.ClusterRecord.Placed;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The cluster topic's records: encoding, keys, and what decoding refuses. */
@Timeout(60)
class ClusterRecordsTest {
    static final Stamp STAMP = new Stamp("inc-1", 0);

    static Decoded<ClusterRecord> roundTrip(ClusterRecord r) {
        return Wire.decodeCluster(r.key().kafkaKey(), Wire.encode(r));
    }

    static String json(ClusterRecord r) {
        return new String(Wire.encode(r), StandardCharsets.UTF_8);
    }

    @Test
    void headerNodePlacementAndTombstoneRoundTripUnderTheirKeys() {
        Header header = new Header("gpu-east", Map.of("region", "us-east"), "0.1.0", new Stamp("inc-1", 2), 7, T, 3, 1);
        NodeState odd = new NodeState(
                "n3",
                Map.of("kubernetes.io/hostname", "host-3", "zone", "b"),
                List.of(),
                false,
                false,
                res("nvidia.com/gpu", "8"),
                res("nvidia.com/gpu", "3"));
        List<ClusterRecord> records = List.of(
                header,
                new Node("gpu-east", STAMP, h100("n1", 8, true, true, "a")),
                new Node("gpu-east", STAMP, odd),
                new Placed("gpu-east", STAMP, new PlacementReport("p-1", 2, 1, res("nvidia.com/gpu", "4"))),
                new Gone(new Key(Kind.NODE, "n2")),
                new Gone(new Key(Kind.PLACEMENT, "p-0")));
        for (ClusterRecord r : records) {
            assertThat(roundTrip(r)).as(r.key().kafkaKey()).isEqualTo(new Decoded.Ok<>(r));
        }
        assertThat(records.stream().map(r -> r.key().kafkaKey()))
                .containsExactly("gpu-east", "node/n1", "node/n3", "placement/p-1", "node/n2", "placement/p-0");
        assertThat(Wire.encode(records.get(4))).isNull();
    }

    static final List<UnwatchedKind> PYTORCH_THROTTLED = List.of(new UnwatchedKind(
            "kubeflow.org/v1",
            "PyTorchJob",
            "discovery of kubeflow.org/v1: the API server answered 429 TooManyRequests"));

    @Test
    void aHeaderListsTheKindsItsAgentCannotWatchAndTheyReachTheAssembledSummary() {
        Header header = new Header("gpu-east", Map.of(), "0.2.0", STAMP, 7, T, 0, 0, PYTORCH_THROTTLED);
        assertThat(roundTrip(header)).isEqualTo(new Decoded.Ok<>(header));
        assertThat(json(header))
                .contains("\"unwatched\":[{\"apiVersion\":\"kubeflow.org/v1\",\"kind\":\"PyTorchJob\","
                        + "\"reason\":\"discovery of kubeflow.org/v1: the API server answered 429 TooManyRequests\"}]");
        ClusterSummary s = new ClusterSummary(
                "gpu-east", Map.of(), "0.2.0", "inc-1", 7, T, List.of(), List.of(), PYTORCH_THROTTLED);
        ClusterAssembly a = new ClusterAssembly("gpu-east");
        new ClusterDeltas().next(s).forEach(r -> a.apply(((Decoded.Ok<ClusterRecord>) roundTrip(r)).value()));
        assertThat(a.take().orElseThrow().summary().unwatched()).isEqualTo(PYTORCH_THROTTLED);
    }

    /** The header as agents before the unwatched list wrote it (by hand, from that codec): read with none. */
    @Test
    void aHeaderFromAnAgentBeforeTheUnwatchedListIsReadWithNone() {
        byte[] older = ("{\"schema\":1,\"type\":\"cluster\",\"cluster\":\"gpu-east\",\"labels\":{\"region\":\"us\"},"
                        + "\"agentVersion\":\"0.1.0\",\"incarnation\":\"inc-1\",\"sequence\":7,"
                        + "\"heartbeat\":\"2026-12-02T12:00:00Z\",\"nodes\":3,\"placements\":1}")
                .getBytes(StandardCharsets.UTF_8);
        Header expected = new Header("gpu-east", Map.of("region", "us"), "0.1.0", STAMP, 7, T, 3, 1, List.of());
        assertThat(Wire.decodeCluster("gpu-east", older)).isEqualTo(new Decoded.Ok<>(expected));
        assertThat(json(expected)).doesNotContain("unwatched"); // and a header listing none is written as they wrote it
    }

    /**
     * A reader before the unwatched list reads a header by its named fields and ignores the others (the envelope's
     * rule): what it reads of a header listing unwatched kinds is the same header without them, fields and values.
     */
    @Test
    void aHeaderListingUnwatchedKindsIsTheOlderHeaderPlusOneFieldOlderReadersIgnore() throws Exception {
        Header listing = new Header("gpu-east", Map.of("region", "us"), "0.2.0", STAMP, 7, T, 3, 1, PYTORCH_THROTTLED);
        Header without = new Header("gpu-east", Map.of("region", "us"), "0.2.0", STAMP, 7, T, 3, 1);
        var newer = (com.fasterxml.jackson.databind.node.ObjectNode) Envelope.JSON.readTree(Wire.encode(listing));
        assertThat(newer.remove("unwatched")).isNotNull();
        assertThat(newer).isEqualTo(Envelope.JSON.readTree(Wire.encode(without)));
        // a list this build cannot read is refused, saying why
        String broken = json(listing).replace("\"unwatched\":[", "\"unwatched\":[{\"kind\":\"X\"},");
        assertThat(Wire.decodeCluster("gpu-east", broken.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Failed<>("field 'apiVersion' is missing or not text"));
    }

    @Test
    void aNodeRecordAsWrittenIsReadInOnePassToTheSameNode() {
        NodeState odd = new NodeState(
                "n3",
                Map.of("kubernetes.io/hostname", "host-3", "zone", "b"),
                List.of(),
                false,
                false,
                res("nvidia.com/gpu", "8"),
                ResourceList.EMPTY);
        NodeParts parts = new NodeParts();
        for (NodeState n : List.of(h100("n1", 8, true, true, "a"), h100("n2", 8, true, true, "a"), odd)) {
            Node r = new Node("gpu-east", new Stamp("inc-1", 3), n);
            byte[] value = Wire.encode(r);
            assertThat(NodeRecordReader.read(value, r.key(), parts))
                    .as(n.name())
                    .contains(r);
            String later = json(r).replace("{\"schema\":1,", "{\"schema\":1,\"addedLater\":{\"x\":[1,{}]},");
            assertThat(NodeRecordReader.read(later.getBytes(StandardCharsets.UTF_8), r.key(), parts))
                    .as("unknown fields are ignored")
                    .contains(r);
        }
        // not as written here: left to the full decoding, which says why
        byte[] n1 = Wire.encode(new Node("gpu-east", STAMP, h100("n1", 8, true, true, "a")));
        assertThat(NodeRecordReader.read(n1, new Key(Kind.NODE, "n2"), parts)).isEmpty();
        String json = new String(n1, StandardCharsets.UTF_8);
        for (String broken : List.of(
                json.replace("\"schema\":1", "\"schema\":2"),
                json.replace("cluster.node", "cluster"),
                json.replace("\"name\":\"n1\",", ""),
                json.replace("\"8\"", "\"1e30\""),
                json + "{}")) {
            assertThat(NodeRecordReader.read(broken.getBytes(StandardCharsets.UTF_8), new Key(Kind.NODE, "n1"), parts))
                    .as(broken)
                    .isEmpty();
        }
    }

    @Test
    void theOnePassReaderReadsEveryVariantOfANodeRecordAsJacksonDoes() {
        Node r = new Node("gpu-east", new Stamp("inc-1", 3), h100("n1", 3, false, true, "a"));
        String json = json(r);
        List<String> variants = List.of(
                json,
                json.replace(",", " ,\n\t").replace(":", " : ").replace("{", "{ \r\n"),
                json.replace("\"name\":\"n1\"", "\"name\":\"n\\u0031\""), // an escape: left to Jackson
                json.replace("\"type\"", "\"name\":\"n2\",\"type\""), // a field twice: the last counts
                json.replace("\"name\":\"n1\"", "\"name\":\"n2\",\"name\":\"n1\""),
                json.replace("\"schema\":1", "\"schema\":01"),
                json.replace("\"schema\":1", "\"schema\":1.0"),
                json.replace("\"schema\":1", "\"schema\":-0"),
                json.replace("\"resync\":3", "\"resync\":99999999999999999999"),
                json.replace("\"ready\":false", "\"ready\":null"),
                json.replace("\"ready\":false", "\"ready\":falsey"),
                json.replace("\"cluster\":\"gpu-east\"", "\"cluster\":\"gpu-\u00e9ast\""),
                json.replace("{\"schema\":1,", "{\"schema\":1,\"later\":null,\"more\":[\"a\",{\"b\":2.5e3}],"),
                json.replace("{\"schema\":1,", "{\"schema\":1,\"later\":{\"a\":},"),
                json.replace("{\"schema\":1,", "{\"schema\":1,\"later\":[1}],"),
                json.replace("\"a\"}", "\"a\",}"), // a trailing comma inside labels
                json + " ",
                json + ",",
                json.substring(0, json.length() - 1),
                "{}",
                "[]",
                "");
        NodeParts parts = new NodeParts();
        for (String v : variants) {
            byte[] value = v.getBytes(StandardCharsets.UTF_8);
            assertThat(Wire.decodeCluster("node/n1", value, parts))
                    .as(v)
                    .isEqualTo(Wire.decodeCluster("node/n1", value));
        }
        // what is plain is read in one pass, not left to Jackson
        assertThat(NodeRecordReader.read(variants.get(1).getBytes(StandardCharsets.UTF_8), r.key(), parts))
                .contains(r);
        assertThat(NodeRecordReader.read(variants.get(4).getBytes(StandardCharsets.UTF_8), r.key(), parts))
                .contains(r);
    }

    @Test
    void aNodeRecordWritesOnlyWhatDiffersFromTheDefaults() {
        String ready = json(new Node("gpu-east", STAMP, h100("n1", 0, true, true, "a")));
        assertThat(ready)
                .doesNotContain("\"ready\"", "\"schedulable\"", "\"allocated\"", "\"hostname\"", "\"resync\"")
                .doesNotContain("kubernetes.io/hostname")
                .contains("\"type\":\"cluster.node\"", "\"incarnation\":\"inc-1\"", "\"name\":\"n1\"");
        // a fully used H100 node with its shape inline (labels, taint, allocatable) stays small
        String busy = json(new Node("gpu-east", STAMP, h100("n1", 8, true, true, "a")));
        assertThat(busy.length()).isLessThan(600);
    }

    @Test
    void absurdAmountsAreRefusedNamingTheNodeAndTheField() {
        Node n = new Node(
                "gpu-east",
                STAMP,
                new NodeState(
                        "n1", Map.of(), List.of(), true, true, res("nvidia.com/gpu", "8"), res("nvidia.com/gpu", "2")));
        String json = json(n);
        assertThat(Wire.decodeCluster(
                        "node/n1", json.replace("\"8\"", "\"1e30\"").getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(
                        new Decoded.Failed<>(
                                "node 'n1' allocatable.nvidia.com/gpu = 1000000000000000000000000000000 is larger than the ceiling of 1048576 per pod"));
        assertThat(Wire.decodeCluster("node/n1", json.replace("\"2\"", "\"-2\"").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(Decoded.Failed.class);
        // a reader sharing parts refuses it every time: a refused part is never kept for the next node
        NodeParts parts = new NodeParts();
        byte[] absurd = json.replace("\"8\"", "\"1e30\"").getBytes(StandardCharsets.UTF_8);
        assertThat(Wire.decodeCluster("node/n1", absurd, parts)).isInstanceOf(Decoded.Failed.class);
        assertThat(Wire.decodeCluster("node/n1", absurd, parts)).isInstanceOf(Decoded.Failed.class);
        assertThat(Wire.decodeCluster("node/n1", json.getBytes(StandardCharsets.UTF_8), parts))
                .isInstanceOf(Decoded.Ok.class);
        String placed = json(new Placed("gpu-east", STAMP, new PlacementReport("p-1", 1, 0, res())));
        assertThat(Wire.decodeCluster(
                        "placement/p-1",
                        placed.replace("\"pendingPods\":0", "\"pendingPods\":-5")
                                .getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Failed<>("placement 'p-1' pendingPods = -5 is out of range"));
        String header = json(new Header("gpu-east", Map.of(), "v", STAMP, 1, T, 2, 0));
        assertThat(Wire.decodeCluster(
                        "gpu-east",
                        header.replace("\"nodes\":2", "\"nodes\":-2").getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Failed<>("field 'nodes' = -2 is out of range (0 to 1000000)"));
    }

    @Test
    void aRecordWhoseNameIsNotItsKeysIsRefused() {
        byte[] n1 = Wire.encode(new Node("gpu-east", STAMP, h100("n1", 0, true, true, "a")));
        assertThat(Wire.decodeCluster("node/n2", n1)).isEqualTo(new Decoded.Failed<>("node 'n1' under key 'node/n2'"));
        assertThat(Wire.decodeCluster("placement/n1", n1))
                .isEqualTo(new Decoded.Failed<>("expected a 'cluster.placement' record, found 'cluster.node'"));
        assertThat(Wire.decodeCluster("a/b", n1)).isInstanceOf(Decoded.Failed.class);
        assertThat(Wire.decodeCluster(null, n1)).isInstanceOf(Decoded.Failed.class);
        assertThat(Wire.decodeCluster("node/", n1)).isInstanceOf(Decoded.Failed.class);
    }

    @Test
    void theOldWholeClusterRecordAndJunkAreRefusedWithAReason() {
        byte[] old = ("{\"schema\":1,\"type\":\"cluster\",\"cluster\":\"a\",\"labels\":{},\"agentVersion\":\"0.1.0\","
                        + "\"incarnation\":\"i\",\"sequence\":1,\"heartbeat\":\"2026-12-03T08:00:00Z\","
                        + "\"nodes\":[{\"name\":\"n1\",\"shape\":0}],\"shapes\":[],\"placements\":[]}")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(Wire.decodeCluster("a", old))
                .isInstanceOfSatisfying(
                        Decoded.Failed.class,
                        f -> assertThat(f.reason())
                                .contains("whole-cluster summary")
                                .contains("upgrade this cluster's agent"));
        assertThat(Wire.decodeCluster("a", "not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(Decoded.Failed.class);
        assertThat(Wire.decodeCluster("a", "{\"schema\":1,\"type\":\"cluster\",\"cluster\":\"a\"}".getBytes()))
                .isEqualTo(new Decoded.Failed<>("field 'incarnation' is missing or not text"));
        assertThat(Wire.decodeCluster("a", null))
                .isEqualTo(new Decoded.Failed<>("a tombstone under the cluster's own key (a header is never deleted)"));
    }

    @Test
    void aFiveThousandNodeClusterIsWrittenAsSmallRecords() {
        List<NodeState> nodes = new ArrayList<>();
        String[] zones = {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"};
        for (int i = 0; i < 5000; i++) {
            nodes.add(h100(
                    String.format("ip-10-%d-%d-%d.ec2.internal", i / 65536, (i / 256) % 256, i % 256),
                    i % 9,
                    i % 97 != 0,
                    i % 113 != 0,
                    zones[i % zones.length]));
        }
        ClusterSummary s = new ClusterSummary("big", Map.of(), "0.1.0", "inc", 1, T, nodes, List.of());
        List<ClusterRecord> first = new ClusterDeltas().next(s);
        assertThat(first).hasSize(5001);
        int largest = first.stream().mapToInt(r -> Wire.encode(r).length).max().orElseThrow();
        assertThat(largest).as("largest record of the first round").isLessThan(1024);
        assertThat(first.get(5000)).isInstanceOf(Header.class);
        assertThat(Wire.encode(first.get(5000)).length).as("the header").isLessThan(300);
    }
}
