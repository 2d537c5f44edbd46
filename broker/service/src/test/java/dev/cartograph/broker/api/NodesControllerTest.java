package dev.cartograph.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.interpreter.Documents;
import io.micronaut.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The dashboard's fleet summary and node map on FleetControllerTest's hand-made fleet (w1 6 free, w2 8, w3 0, w4 off). */
@Timeout(30)
class NodesControllerTest {
    final NodesController controller = new NodesController(new StandInState(
            () -> new BrokerView(
                    FleetControllerTest.fleet(),
                    Map.of(),
                    List.of("u1"),
                    Map.of(),
                    Map.of(),
                    true,
                    true,
                    0,
                    0,
                    FleetControllerTest.NOW),
            StandInState::defaultSettings,
            FleetControllerTest.NOW));

    static JsonNode body(HttpResponse<String> r) throws Exception {
        return Documents.json().readTree(r.body());
    }

    @Test
    void theSummaryHasTheFleetsGpuRowsAndHowFragmentedEachClusterIsWithoutItsNodes() throws Exception {
        JsonNode s = body(controller.summary());
        JsonNode west = s.path("clusters").get(0);
        assertThat(west.path("name").asText()).isEqualTo("west");
        assertThat(west.path("ready").asBoolean()).isTrue();
        assertThat(west.path("heartbeatAgeSeconds").asLong()).isZero();
        assertThat(west.has("nodeList") || west.has("nodesList")).isFalse();
        // 4 nodes × 8 = 32; used 2 + 0 + 8 (+ w4 not ready: its 8 are not free) = 10; free 6 + 8 + 0 = 14
        JsonNode h100 = west.path("gpuModels").get(0);
        assertThat(List.of(
                        h100.path("total").asLong(),
                        h100.path("allocated").asLong(),
                        h100.path("free").asLong(),
                        h100.path("largestFreeBlock").asLong()))
                .containsExactly(32L, 10L, 14L, 8L);
        // nodes by free GPUs: w3 has 0, w1 6, w2 8; w4 cannot take pods
        assertThat(west.path("nodesByFreeGpus").toString()).isEqualTo("[1,0,0,0,0,0,1,0,1]");
        assertThat(west.path("unusableGpuNodes").asLong()).isEqualTo(1);
        assertThat(s.path("totals").path("free").asLong()).isEqualTo(14);
        assertThat(s.path("queued").asInt()).isEqualTo(1);
    }

    @Test
    void theNodeMapListsEveryNodeInDomainOrder() throws Exception {
        JsonNode m = body(controller.nodes("west"));
        // zone z1 for all; clique c1 (w1, w2), c2 (w3), then w4 without a clique
        assertThat(m.path("nodes").findValuesAsText("name")).containsExactly("w1", "w2", "w3", "w4");
        assertThat(m.path("nodes").findValuesAsText("free")).containsExactly("6", "8", "0", "0");
        assertThat(m.path("nodes").get(3).path("usable").asBoolean()).isFalse();
        assertThat(m.path("nodes")
                        .get(0)
                        .path("domains")
                        .path("nvidia.com/gpu.clique")
                        .asText())
                .isEqualTo("c1");
        assertThat(controller.nodes("nowhere").getStatus().getCode()).isEqualTo(404);
    }
}
