package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.cartograph.interpreter.Documents;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code carto fleet --by-domain} against a stand-in broker answering {@code GET /api/v1/fleet/domains} as the real one
 * does. gpu-east by hand: zone us-east-1a, 4 H100 nodes of 8 GPUs; clique clq-1 (n1, n2) wholly free, 16 of 16;
 * clique clq-2 (n3 2 used, n4 8 used) 6 of 16, largest 6; a CPU-only node in the zone (a row with no GPUs).
 */
@Timeout(60)
class FleetDomainsCommandTest {
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final String DOMAINS = """
            {"levels":["topology.kubernetes.io/zone","nvidia.com/gpu.clique"],"domains":[
             {"cluster":"gpu-east","level":"topology.kubernetes.io/zone","domain":"us-east-1a","gpuModel":"",
              "nodes":1,"readyNodes":1,"totalGpus":0,"freeGpus":0,"largestFreeBlock":0,"wholeFreeNodes":0},
             {"cluster":"gpu-east","level":"topology.kubernetes.io/zone","domain":"us-east-1a","gpuModel":"%1$s",
              "nodes":4,"readyNodes":4,"totalGpus":32,"freeGpus":22,"largestFreeBlock":8,"wholeFreeNodes":2},
             {"cluster":"gpu-east","level":"nvidia.com/gpu.clique","domain":"clq-1","gpuModel":"%1$s",
              "nodes":2,"readyNodes":2,"totalGpus":16,"freeGpus":16,"largestFreeBlock":8,"wholeFreeNodes":2},
             {"cluster":"gpu-east","level":"nvidia.com/gpu.clique","domain":"clq-2","gpuModel":"%1$s",
              "nodes":2,"readyNodes":2,"totalGpus":16,"freeGpus":6,"largestFreeBlock":6,"wholeFreeNodes":0}]}
            """.formatted(H100);

    HttpServer server;
    final AtomicReference<String> query = new AtomicReference<>();
    String answer = DOMAINS;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/fleet/domains", exchange -> {
            if (StandInBroker.refuses(exchange)) {
                return;
            }
            query.set(exchange.getRequestURI().getQuery());
            StandInBroker.answer(exchange, 200, answer);
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
    void byDomainShowsFreeOfTotalPerClusterLevelDomainAndModel() {
        CartoTest.Run run = CartoTest.carto(StandInBroker.WITH_TOKEN, "fleet", "--by-domain", "--broker", url());

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0).split("\\s+"))
                .containsExactly(
                        "CLUSTER", "LEVEL", "DOMAIN", "GPU-MODEL", "NODES", "FREE/TOTAL", "LARGEST", "WHOLE-FREE");
        // the CPU-only row (no GPUs) is left out of the table
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1).split("\\s+"))
                .containsExactly("gpu-east", "topology.kubernetes.io/zone", "us-east-1a", H100, "4", "22/32", "8", "2");
        assertThat(lines.get(2).split("\\s+"))
                .containsExactly("gpu-east", "nvidia.com/gpu.clique", "clq-1", H100, "2", "16/16", "8", "2");
        assertThat(lines.get(3).split("\\s+"))
                .containsExactly("gpu-east", "nvidia.com/gpu.clique", "clq-2", H100, "2", "6/16", "6", "0");
        assertThat(query.get()).isNull();
    }

    @Test
    void jsonIsTheBrokersAnswerAndLevelIsSentAsAQuery() throws Exception {
        CartoTest.Run run = CartoTest.carto(
                StandInBroker.WITH_TOKEN,
                "fleet",
                "--by-domain",
                "--level",
                "nvidia.com/gpu.clique",
                "--broker",
                url(),
                "-o",
                "json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode body = Documents.json().readTree(run.out());
        assertThat(body).isEqualTo(Documents.json().readTree(DOMAINS));
        assertThat(query.get()).isEqualTo("level=nvidia.com/gpu.clique");
    }

    @Test
    void aFleetWithoutTopologyLabelsSaysWhichLevelsTheBrokerLooksFor() {
        answer = "{\"levels\":[\"topology.kubernetes.io/zone\"],\"domains\":[]}";

        CartoTest.Run run = CartoTest.carto(StandInBroker.WITH_TOKEN, "fleet", "--by-domain", "--broker", url());

        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .isEqualTo("no GPU node carries a topology label (levels: topology.kubernetes.io/zone; the broker's "
                        + "cartograph.broker.topology-levels)\n");
    }

    @Test
    void levelWithoutByDomainIsAUsageError() {
        CartoTest.Run run = CartoTest.carto(
                StandInBroker.WITH_TOKEN, "fleet", "--level", "nvidia.com/gpu.clique", "--broker", url());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--level needs --by-domain");
    }
}
