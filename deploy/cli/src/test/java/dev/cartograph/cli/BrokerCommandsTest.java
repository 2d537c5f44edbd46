package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.placement.DecisionJson;
import dev.cartograph.placement.Demands;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.Wire;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code carto fleet --broker} and {@code carto plan --broker} against a stand-in broker that
 * answers as the real one does ({@code /api/v1/plan} runs the real planner on the example
 * snapshot): the broker path gives the same decision as {@code --fleet}, and errors are reported.
 */
class BrokerCommandsTest {
    static final Path FLEET = Path.of("../../deploy/examples/fleet.json");
    static final String JOB = "../../catalog/src/test/resources/examples/pytorchjob-gpu.yaml";
    HttpServer server;
    final AtomicReference<String> planned = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        List<ClusterState> fleet =
                ((Decoded.Ok<List<ClusterState>>) Wire.decodeFleet(Files.readAllBytes(FLEET))).value();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/fleet", exchange -> {
            if (StandInBroker.refuses(exchange)) {
                return;
            }
            // what GET /api/v1/fleet adds to the snapshot: GPU rows per model (gpu-east by hand: 4 x 8 H100, free
            // 8,8,6,0)
            byte[] body = """
                    {"clusters":[{"name":"gpu-east","ready":true,"nodes":[],"pending":1,"gpuModels":[
                      {"model":"NVIDIA-H100-80GB-HBM3","nodes":4,"total":32,"allocated":6,"reserved":4,"free":22,"largestFreeBlock":8}]},
                     {"name":"gpu-edge","ready":false,"nodes":[],"pending":0,"gpuModels":[
                      {"model":"NVIDIA-L40S","nodes":2,"total":8,"allocated":1,"reserved":0,"free":0,"largestFreeBlock":0}]}],
                     "totals":{"total":40,"allocated":7,"reserved":4,"free":22,"largestFreeBlock":8},"queued":2}
                    """.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/api/v1/plan", exchange -> {
            if (StandInBroker.refuses(exchange) || StandInBroker.forbids(exchange, "create", "ml")) {
                return;
            }
            String text = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            planned.set(text);
            JsonNode object = Documents.json().readTree(text);
            byte[] body;
            int status = 200;
            if (Interpreter.of(Catalog.load().definitions()).resolve(object) instanceof Resolution.Resolved r) {
                body = DecisionJson.encode(Planner.plan(
                                Demands.of(r.view()), Demands.clusterSelector(object), fleet, Planner.Policy.BIN_PACK))
                        .toString()
                        .getBytes(StandardCharsets.UTF_8);
            } else {
                status = 422;
                body = "{\"error\":{\"code\":\"no_definition\",\"message\":\"no definition for Nope\"}}"
                        .getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void fleetShowsOneRowPerClusterAndGpuModel() {
        CartoTest.Run run = CartoTest.carto(StandInBroker.WITH_TOKEN, "fleet", "--broker", url());
        assertThat(run.exit()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0))
                .containsSubsequence(
                        "CLUSTER",
                        "READY",
                        "GPU MODEL",
                        "TOTAL",
                        "USED",
                        "RESERVED",
                        "FREE",
                        "LARGEST BLOCK",
                        "PENDING");
        assertThat(lines.get(1).split("\\s+"))
                .containsExactly("gpu-east", "True", "NVIDIA-H100-80GB-HBM3", "4", "32", "6", "4", "22", "8", "1");
        assertThat(lines.get(2).split("\\s+"))
                .containsExactly("gpu-edge", "False", "NVIDIA-L40S", "2", "8", "1", "0", "0", "0", "0");
        assertThat(run.out()).contains("2 clusters, 40 GPUs: 7 used, 4 reserved, 22 free; 2 queued");
    }

    @Test
    void fleetPrintsTheBrokersSnapshotAsJsonOrYaml() throws Exception {
        for (String format : new String[] {"json", "yaml"}) {
            CartoTest.Run run = CartoTest.carto(StandInBroker.WITH_TOKEN, "fleet", "--broker", url(), "-o", format);
            assertThat(run.exit()).as(run.err()).isZero();
            JsonNode fleet = format.equals("json")
                    ? Documents.json().readTree(run.out())
                    : Documents.yaml().readTree(run.out());
            assertThat(fleet.at("/clusters/0/name").asText()).as(format).isEqualTo("gpu-east");
            assertThat(fleet.at("/totals/total").asLong()).as(format).isEqualTo(40);
            assertThat(fleet.path("queued").asLong()).as(format).isEqualTo(2);
        }
    }

    @Test
    void planViaTheBrokerAgreesWithPlanOnTheSameSnapshot() {
        CartoTest.Run broker =
                CartoTest.carto(StandInBroker.WITH_TOKEN, "plan", "-f", JOB, "--broker", url(), "-o", "json");
        CartoTest.Run local = CartoTest.carto("plan", "-f", JOB, "--fleet", FLEET.toString(), "-o", "json");
        assertThat(broker.exit()).isZero();
        assertThat(broker.out()).isEqualTo(local.out());
        assertThat(planned.get()).contains("\"kind\":\"PyTorchJob\"");
    }

    @Test
    void brokerErrorsAreReportedWithTheirReason() throws Exception {
        Path nope = Files.createTempFile("nope", ".yaml");
        Files.writeString(nope, "apiVersion: x/v1\nkind: Nope\nmetadata: {name: n}\n");
        CartoTest.Run refused =
                CartoTest.carto(StandInBroker.WITH_TOKEN, "plan", "-f", nope.toString(), "--broker", url());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("the broker says: no definition for Nope");
        server.stop(0);
        CartoTest.Run down = CartoTest.carto(StandInBroker.WITH_TOKEN, "fleet", "--broker", url());
        assertThat(down.exit()).isEqualTo(5);
        assertThat(down.err()).contains("cannot reach the broker");
        CartoTest.Run both = CartoTest.carto(
                StandInBroker.WITH_TOKEN, "plan", "-f", JOB, "--broker", url(), "--fleet", FLEET.toString());
        assertThat(both.exit()).isEqualTo(2);
    }

    @Test
    void fleetWithoutATokenSaysWhereToGetOneAndExits6() {
        CartoTest.Run run = CartoTest.carto("fleet", "--broker", url());
        assertThat(run.exit()).isEqualTo(6);
        assertThat(run.err())
                .contains("error: no token for the broker: set CARTOGRAPH_TOKEN or give --token-file FILE")
                .contains("export CARTOGRAPH_TOKEN=$(cat target/local-fleet/broker.token)");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aTokenTheBrokerDoesNotAcceptIsRefusedWithExit6() {
        CartoTest.Run run = CartoTest.carto(Map.of("CARTOGRAPH_TOKEN", "stale"), "fleet", "--broker", url());
        assertThat(run.exit()).isEqualTo(6);
        assertThat(run.err())
                .contains("does not accept the token (401: the token is not in the broker's token file); check "
                        + "CARTOGRAPH_TOKEN or --token-file");
    }

    @Test
    void aPlanTheCallerMayNotCreateIsRefusedWithExit6AndTheMissingPermission() {
        CartoTest.Run run = CartoTest.carto(
                Map.of("CARTOGRAPH_TOKEN", StandInBroker.READER_TOKEN), "plan", "-f", JOB, "--broker", url());
        assertThat(run.exit()).isEqualTo(6);
        assertThat(run.err())
                .contains("does not allow this (403: reader may not create pytorchjobs.kubeflow.org in namespace ml)")
                .contains("ask for that permission on the hub");
        assertThat(planned.get()).isNull(); // the stand-in refused before planning
    }

    @Test
    void theTokenFileAndTheBrokerUrlFromTheEnvironmentAreUsed() throws Exception {
        Path token = Files.createTempFile("broker", ".token");
        Files.writeString(token, StandInBroker.TOKEN + "\n");
        CartoTest.Run run = CartoTest.carto(
                Map.of("CARTOGRAPH_BROKER_URL", url(), "CARTOGRAPH_TOKEN", "ignored-when-a-file-is-given"),
                "fleet",
                "--token-file",
                token.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("2 clusters, 40 GPUs");
        CartoTest.Run noUrl = CartoTest.carto(StandInBroker.WITH_TOKEN, "fleet");
        assertThat(noUrl.exit()).isEqualTo(2);
        assertThat(noUrl.err()).contains("give --broker URL or set CARTOGRAPH_BROKER_URL");
    }
}
