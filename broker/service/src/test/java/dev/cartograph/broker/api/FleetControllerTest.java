package dev.cartograph.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.access.AccessControl;
import dev.cartograph.broker.access.Authentication;
import dev.cartograph.broker.access.Authorizer;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.FleetSnapshot;
import dev.cartograph.fleet.TopologyLevels;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import io.micronaut.http.HttpResponse;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code GET /api/v1/fleet/domains} on a hand-made fleet: west (ready), 8 H100 GPUs per node, every node in zone z1, no
 * rack labels: w1 clique c1, 2 used (6 free); w2 clique c1, none used (8 free, whole); w3 clique c2, 8 used (0 free);
 * w4 no clique, not ready (0 free).
 */
@Timeout(30)
class FleetControllerTest {
    static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String CLIQUE = "nvidia.com/gpu.clique";

    BrokerSettings settings = StandInState.defaultSettings();

    final BrokerState state = new StandInState(
            () -> new BrokerView(fleet(), Map.of(), List.of(), Map.of(), Map.of(), true, true, 0, 0, NOW),
            () -> settings,
            NOW);

    final FleetController controller = new FleetController(
            state,
            new AccessControl(
                    token -> new Authentication.Authenticated(new Caller("carol", "", List.of(), Map.of())),
                    Authorizer.ALLOW_ALL,
                    "test",
                    Clock.fixed(NOW, ZoneOffset.UTC),
                    Duration.ZERO,
                    10));

    static FleetSnapshot fleet() {
        List<NodeState> nodes = List.of(
                node("w1", 2, true, ZONE, "z1", CLIQUE, "c1"),
                node("w2", 0, true, ZONE, "z1", CLIQUE, "c1"),
                node("w3", 8, true, ZONE, "z1", CLIQUE, "c2"),
                node("w4", 0, false, ZONE, "z1"));
        return new FleetSnapshot(
                Map.of("west", new ClusterSummary("west", Map.of(), "v", "i", 1, NOW, nodes, List.of())),
                Map.of(),
                Map.of("west", NOW),
                Map.of());
    }

    static NodeState node(String name, int used, boolean ready, String... kv) {
        Map<String, String> labels = new TreeMap<>(Map.of(NodeState.GPU_PRODUCT, H100));
        for (int i = 0; i < kv.length; i += 2) {
            labels.put(kv[i], kv[i + 1]);
        }
        return new NodeState(
                name, labels, List.of(), ready, true, gpus(8), used == 0 ? ResourceList.EMPTY : gpus(used));
    }

    static ResourceList gpus(long n) {
        return new ResourceList(new TreeMap<>(Map.of("nvidia.com/gpu", BigDecimal.valueOf(n))));
    }

    static JsonNode body(HttpResponse<String> r) throws Exception {
        return Documents.json().readTree(r.body());
    }

    @Test
    void servesFreeGpusPerDomainOfEveryConfiguredLevel() throws Exception {
        HttpResponse<String> r = controller.domains(null);

        assertThat(r.code()).isEqualTo(200);
        // zone z1: 4 nodes, w4 not ready; free 6+8+0+0 = 14, largest 8 (w2), w2 whole free. No rack labels: no rows.
        // c1: w1 + w2, free 6+8 = 14. c2: w3, full. w4 is in no clique.
        assertThat(body(r).toString())
                .isEqualTo(
                        "{\"levels\":[\"topology.kubernetes.io/zone\",\"cartograph.dev/rack\",\"nvidia.com/gpu.clique\"],"
                                + "\"domains\":["
                                + "{\"cluster\":\"west\",\"level\":\"topology.kubernetes.io/zone\",\"domain\":\"z1\",\"gpuModel\":\""
                                + H100
                                + "\",\"nodes\":4,\"readyNodes\":3,\"totalGpus\":32,\"freeGpus\":14,\"largestFreeBlock\":8,"
                                + "\"wholeFreeNodes\":1},"
                                + "{\"cluster\":\"west\",\"level\":\"nvidia.com/gpu.clique\",\"domain\":\"c1\",\"gpuModel\":\""
                                + H100
                                + "\",\"nodes\":2,\"readyNodes\":2,\"totalGpus\":16,\"freeGpus\":14,\"largestFreeBlock\":8,"
                                + "\"wholeFreeNodes\":1},"
                                + "{\"cluster\":\"west\",\"level\":\"nvidia.com/gpu.clique\",\"domain\":\"c2\",\"gpuModel\":\""
                                + H100
                                + "\",\"nodes\":1,\"readyNodes\":1,\"totalGpus\":8,\"freeGpus\":0,\"largestFreeBlock\":0,"
                                + "\"wholeFreeNodes\":0}]}");
    }

    @Test
    void levelFiltersToThatLevelsRows() throws Exception {
        JsonNode b = body(controller.domains(CLIQUE));

        assertThat(b.path("levels").toString()).isEqualTo("[\"nvidia.com/gpu.clique\"]");
        assertThat(b.path("domains")).extracting(d -> d.path("domain").asText()).containsExactly("c1", "c2");
    }

    @Test
    void aLevelTheBrokerIsNotConfiguredWithIsABadRequestNamingTheLevelsItHas() throws Exception {
        settings = settings.withTopologyLevels(new TopologyLevels(List.of(ZONE, CLIQUE)));

        HttpResponse<String> r = controller.domains("kubernetes.io/hostname");

        assertThat(r.code()).isEqualTo(400);
        assertThat(body(r).path("error").path("message").asText())
                .isEqualTo(
                        "level kubernetes.io/hostname is not a topology level of this broker; its levels"
                                + " (cartograph.broker.topology-levels) are topology.kubernetes.io/zone, nvidia.com/gpu.clique");
    }

    @Test
    void theConfiguredLevelsAreTheOnesServed() throws Exception {
        settings = settings.withTopologyLevels(new TopologyLevels(List.of(CLIQUE)));

        JsonNode b = body(controller.domains(null));

        assertThat(b.path("levels").toString()).isEqualTo("[\"nvidia.com/gpu.clique\"]");
        assertThat(b.path("domains")).hasSize(2);
    }
}
