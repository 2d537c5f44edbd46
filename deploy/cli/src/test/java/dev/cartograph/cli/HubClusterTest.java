package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * carto on a Cartograph hub: a fabric8 mock API server holding PyTorchJobs with the labels and
 * annotations a broker writes (broker/service coordinate/Binding, Failover, StatusMirror), and a
 * stand-in broker answering {@code GET /api/v1/workloads} in the shape of broker/service api/Views.
 * Each job is 1 master + 1 worker × 8 GPUs = 2 pods, 16 GPUs (counted by hand).
 */
@Timeout(120)
@EnableKubernetesMockClient(crud = true)
class HubClusterTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;

    Path kubeconfig;
    MockCluster hub;
    HttpServer broker;

    private static String job(String name, String labels, String annotations, String status) {
        return """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: %s
                  namespace: ml
                  labels: {cartograph.dev/federate: "true", %s}
                  annotations: {%s}
                spec:
                  pytorchReplicaSpecs:
                    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: x, resources: {limits: {nvidia.com/gpu: 8}}}]}}}
                    Worker: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: x, resources: {limits: {nvidia.com/gpu: 8}}}]}}}
                %s
                ---
                """.formatted(name, labels, annotations, status);
    }

    @BeforeEach
    void seed() throws Exception {
        hub = new MockCluster(client).crd("kubeflow.org", "PyTorchJob", "pytorchjobs", List.of(), "v1");
        kubeconfig = hub.kubeconfig(dir, "ml");
        String running = "status: {conditions: [{type: Created, status: \"True\"}, {type: Running, status: \"True\"}]}";
        hub.create(
                job(
                                "eval-h100",
                                "cartograph.dev/phase: Queued",
                                "cartograph.dev/reason: 'fits on no cluster now: gpu-east: largest free block 6'",
                                "")
                        // placed on gpu-east at epoch 3; the member's status mirrored onto the hub object
                        + job(
                                "llama",
                                "cartograph.dev/phase: Running, cartograph.dev/cluster: gpu-east",
                                "cartograph.dev/epoch: '3'",
                                running)
                        // queued again after its cluster was lost: the old member's Running status is still mirrored
                        + job(
                                "moved",
                                "cartograph.dev/phase: Queued",
                                "cartograph.dev/epoch: '4', cartograph.dev/reason: gpu-west was lost",
                                running),
                "pytorchjobs");
    }

    @AfterEach
    void stopBroker() {
        if (broker != null) {
            broker.stop(0);
        }
    }

    private String startBroker() throws Exception {
        broker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String body = """
                {"workloads":[
                  {"uid":"%s","namespace":"ml","apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","name":"eval-h100",
                   "cluster":null,"epoch":0,"state":"QUEUED","reason":"fits on no cluster now","queuePosition":1},
                  {"uid":"%s","namespace":"ml","apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","name":"llama",
                   "cluster":"gpu-east","epoch":3,"state":"APPLIED","reason":"","phase":"Running","pods":2,"gpus":16}]}
                """.formatted(hub.uid("pytorchjobs/eval-h100"), hub.uid("pytorchjobs/llama"));
        JsonNode workloads = Documents.json().readTree(body);
        broker.createContext("/api/v1/workloads/", exchange -> {
            if (StandInBroker.refuses(exchange) || StandInBroker.forbids(exchange, "get", "ml")) {
                return;
            }
            String uid = exchange.getRequestURI().getPath().substring("/api/v1/workloads/".length());
            for (JsonNode w : workloads.path("workloads")) {
                if (w.path("uid").asText().equals(uid)) {
                    StandInBroker.answer(exchange, 200, w.toString());
                    return;
                }
            }
            StandInBroker.answer(exchange, 404, "{\"error\":{\"code\":\"not_found\",\"message\":\"no " + uid + "\"}}");
        });
        broker.start();
        return "http://127.0.0.1:" + broker.getAddress().getPort();
    }

    @Test
    void getShowsAWaitingGangWithTheBrokersPhaseNotUndefined() throws Exception {
        CartoTest.Run run = CartoTest.carto("get", "pytorchjobs", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode items = Documents.json().readTree(run.out()).path("items");
        assertThat(items)
                .extracting(i -> i.path("name").asText() + "=" + i.path("phase").asText() + "@"
                        + i.path("cluster").asText("-"))
                .containsExactlyInAnyOrder("eval-h100=Queued@-", "llama=Running@gpu-east", "moved=Queued@-");

        CartoTest.Run table = CartoTest.carto("get", "pytorchjobs", "--kubeconfig", kubeconfig.toString());
        assertThat(table.out())
                .contains("eval-h100  -         Queued   0/2   16")
                .doesNotContain("Undefined");
    }

    @Test
    void getFiltersByTheBrokersPhase() throws Exception {
        CartoTest.Run run = CartoTest.carto(
                "get", "pytorchjobs", "--phase", "Queued", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(Documents.json().readTree(run.out()).path("items"))
                .extracting(i -> i.path("name").asText())
                .containsExactlyInAnyOrder("eval-h100", "moved");
    }

    @Test
    void describeOfAPlacedWorkloadSaysWhereItRunsAndShowsTheMembersSummary() throws Exception {
        String url = startBroker();
        CartoTest.Run run = CartoTest.carto(
                StandInBroker.WITH_TOKEN,
                "describe",
                "pytorchjob/llama",
                "--kubeconfig",
                kubeconfig.toString(),
                "--broker",
                url);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("Placed:  on gpu-east, epoch 3 (broker phase Running)")
                .contains(
                        "Pods:    2 on gpu-east, phase Running, 16 GPUs (its agent's last summary; broker state APPLIED)")
                .doesNotContain("none found");

        JsonNode json = Documents.json()
                .readTree(CartoTest.carto(
                                StandInBroker.WITH_TOKEN,
                                "describe",
                                "pytorchjob/llama",
                                "--kubeconfig",
                                kubeconfig.toString(),
                                "--broker",
                                url,
                                "-o",
                                "json")
                        .out());
        assertThat(json.at("/broker/cluster").asText()).isEqualTo("gpu-east");
        assertThat(json.at("/broker/epoch").asLong()).isEqualTo(3);
        assertThat(json.at("/member/pods").asLong()).isEqualTo(2);
        assertThat(json.at("/member/phase").asText()).isEqualTo("Running");
    }

    @Test
    void describeSaysPlainlyWhenTheBrokerCannotBeReached() throws Exception {
        String url;
        try (java.net.ServerSocket closed =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            url = "http://127.0.0.1:" + closed.getLocalPort(); // nothing listens there once closed
        }
        CartoTest.Run run = CartoTest.carto(
                StandInBroker.WITH_TOKEN,
                "describe",
                "pytorchjob/llama",
                "--kubeconfig",
                kubeconfig.toString(),
                "--broker",
                url);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("Placed:  on gpu-east, epoch 3")
                .contains("Pods:    on gpu-east; its agent's summary is unknown: cannot reach the broker at " + url)
                .doesNotContain("none found");

        CartoTest.Run noBroker = CartoTest.carto("describe", "pytorchjob/llama", "--kubeconfig", kubeconfig.toString());
        assertThat(noBroker.out()).contains("Pods:    on gpu-east; give --broker URL");
    }

    @Test
    void describeSaysWhenTheBrokerRefusesTheCallerAndExits6() throws Exception {
        String url = startBroker();
        CartoTest.Run none =
                CartoTest.carto("describe", "pytorchjob/llama", "--kubeconfig", kubeconfig.toString(), "--broker", url);
        assertThat(none.exit()).isEqualTo(6);
        assertThat(none.out())
                .contains("Placed:  on gpu-east, epoch 3")
                .contains("Pods:    on gpu-east; no token for the broker");
        assertThat(none.err()).contains("error: no token for the broker: set CARTOGRAPH_TOKEN");

        CartoTest.Run reader = CartoTest.carto(
                Map.of("CARTOGRAPH_TOKEN", StandInBroker.READER_TOKEN),
                "describe",
                "pytorchjob/llama",
                "--kubeconfig",
                kubeconfig.toString(),
                "--broker",
                url,
                "-o",
                "json");
        assertThat(reader.exit()).isEqualTo(6);
        assertThat(Documents.json().readTree(reader.out()).at("/member/refused").asText())
                .contains("403: reader may not get pytorchjobs.kubeflow.org in namespace ml");
    }

    @Test
    void describeOfAWaitingGangShowsTheBrokersReason() {
        CartoTest.Run run =
                CartoTest.carto("describe", "pytorchjob", "eval-h100", "--kubeconfig", kubeconfig.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("Broker:  Queued: fits on no cluster now: gpu-east: largest free block 6")
                .contains("Pods:    none: the broker has not placed it");
    }
}
