package dev.cartograph.local.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.cli.Carto;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.local.FleetOptions;
import dev.cartograph.local.LocalFleet;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The broker's {@code /prometheus} on the local fleet (default profile) says what {@code carto fleet} says: every
 * (cluster, GPU model, state) number, the largest free block and node count, readiness and the queue length are
 * those {@code carto fleet -o json} prints (run in this JVM), scraped with the same bearer token it sends.
 * Namespace GPUs and the queue are checked against hand counts of the gangs submitted. An agent's metrics show the
 * summaries it published and the applies it carried out. Both expositions parse line by line.
 */
@Timeout(300)
class MetricsIT {
    static final Path EXAMPLES = Path.of("examples");
    static final Path CHART_MONITORING = Path.of("../chart/cartograph/files");
    static final List<String> STATES = List.of("total", "allocated", "reserved", "free");

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void prometheusShowsTheFleetsNumbersAsCartoFleetDoes() throws Exception {
        try (LocalFleet fleet = LocalFleet.start(
                FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(Duration.ofSeconds(120)))) {
            String token = Files.readString(fleet.token().file()).strip();
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            assertThat(get(fleet, "/prometheus", null).statusCode())
                    .as("a scrape without a token")
                    .isEqualTo(401);

            // by hand: JobSet 4 x 8 (gpu-west), MPIJob 2 workers x 3 L40S (gpu-edge), PyTorchJob 2 x 8 H100 (gpu-east),
            // all in namespace ml: 32 + 6 + 16 = 54 GPUs placed; then a second 2 x 8 H100 gang, which waits
            List<GenericKubernetesResource> placed = new ArrayList<>();
            for (String example : List.of("jobset-whole-nodes.yaml", "mpijob-l40s.yaml", "pytorchjob.yaml")) {
                placed.add(submit(fleet, example));
            }
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> placed.stream().allMatch(r -> "Running".equals(phase(fleet, r))),
                    () -> "three gangs running");
            GenericKubernetesResource waiting = submit(fleet, "waits-for-h100.yaml");
            Eventually.until(
                    Duration.ofSeconds(30), () -> "Queued".equals(phase(fleet, waiting)), () -> "eval-h100 queued");

            // the fleet moves (heartbeats, reservations accounted): compare a scrape with the fleet read before and
            // after it, when those two agree
            AtomicReference<String> mismatch = new AtomicReference<>("not compared yet");
            AtomicReference<Exposition> scraped = new AtomicReference<>();
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> {
                        try {
                            JsonNode before = cartoFleet(fleet);
                            HttpResponse<String> scrape = get(fleet, "/prometheus", token);
                            JsonNode after = cartoFleet(fleet);
                            if (scrape.statusCode() != 200) {
                                mismatch.set("scrape answered " + scrape.statusCode() + ": " + scrape.body());
                                return false;
                            }
                            if (!stable(before).equals(stable(after))) {
                                mismatch.set("the fleet changed during the scrape");
                                return false;
                            }
                            Exposition e = Exposition.parse(scrape.body());
                            scraped.set(e);
                            mismatch.set(differences(after, e));
                            return mismatch.get().isEmpty();
                        } catch (Exception e) {
                            mismatch.set(e.toString());
                            return false;
                        }
                    },
                    () -> "/prometheus equal to /api/v1/fleet: " + mismatch.get());

            Exposition e = scraped.get();
            assertThat(e.types())
                    .containsEntry("cartograph_cluster_gpus", "gauge")
                    .containsEntry("cartograph_cluster_largest_free_block", "gauge")
                    .containsEntry("cartograph_cluster_nodes", "gauge")
                    .containsEntry("cartograph_cluster_ready", "gauge")
                    .containsEntry("cartograph_queue_gangs", "gauge")
                    .containsEntry("cartograph_queue_oldest_wait_seconds", "gauge")
                    .containsEntry("cartograph_namespace_gpus", "gauge")
                    .containsEntry("cartograph_ingest_lag_records", "gauge")
                    .containsEntry("cartograph_broker_leader", "gauge")
                    .containsEntry("cartograph_placement_decision_seconds", "histogram");
            assertThat(Exposition.family("cartograph_placement_decisions_total", e.types()))
                    .hasValueSatisfying(f -> assertThat(e.types().get(f)).isEqualTo("counter"));
            assertThat(e.value("cartograph_queue_gangs", Map.of("queue", "default")))
                    .contains(1.0);
            assertThat(e.value("cartograph_queue_oldest_wait_seconds", Map.of("queue", "default")))
                    .hasValueSatisfying(v -> assertThat(v).isPositive());
            assertThat(e.value("cartograph_namespace_gpus", Map.of("namespace", "ml")))
                    .contains(54.0);
            assertThat(e.value("cartograph_broker_leader", Map.of())).contains(1.0);
            // three placed at once, one waiting (plus retries of the waiting one, when capacity changed)
            assertThat(e.value("cartograph_placement_decisions_total", Map.of("outcome", "placed")))
                    .contains(3.0);
            assertThat(e.value("cartograph_placement_decisions_total", Map.of("outcome", "waiting")))
                    .hasValueSatisfying(v -> assertThat(v).isGreaterThanOrEqualTo(1));
            assertThat(e.find("cartograph_placement_decision_seconds_count", Map.of()))
                    .singleElement()
                    .satisfies(s -> assertThat(s.value()).isGreaterThanOrEqualTo(4));
            assertThat(e.find("cartograph_placement_decision_seconds_bucket", Map.of("le", "+Inf")))
                    .singleElement()
                    .satisfies(s -> assertThat(s.value()).isGreaterThanOrEqualTo(4));
            assertThat(e.find("cartograph_ingest_lag_records", Map.of())).isNotEmpty();

            Exposition agent = Exposition.parse(fleet.agentMetrics("gpu-west").orElseThrow());
            assertThat(agent.value("cartograph_agent_summaries_published_total", Map.of()))
                    .hasValueSatisfying(v -> assertThat(v).isPositive());
            assertThat(agent.value("cartograph_agent_commands_total", Map.of("command", "apply", "outcome", "applied")))
                    .hasValueSatisfying(v -> assertThat(v).isGreaterThanOrEqualTo(1));
            assertThat(agent.find("cartograph_agent_apply_seconds_count", Map.of()))
                    .singleElement()
                    .satisfies(s -> assertThat(s.value()).isGreaterThanOrEqualTo(1));
            assertThat(agent.value("cartograph_agent_informer_synced", Map.of("resource", "nodes")))
                    .contains(1.0);

            // the chart's Grafana dashboard and alert rules ask for nothing the broker and agents do not expose
            assertThat(chartMetricNames())
                    .as("metrics named in %s", CHART_MONITORING)
                    .isNotEmpty()
                    .allSatisfy(name -> assertThat(exposed(name, e, agent))
                            .as("%s is exposed by the broker or an agent", name)
                            .isTrue());
        }
    }

    /** Every {@code cartograph_*} series the chart's dashboard and alert rules query. */
    static Set<String> chartMetricNames() throws IOException {
        Set<String> names = new TreeSet<>();
        Pattern metric = Pattern.compile("cartograph_[a-z_]+");
        for (Path f : List.of(
                CHART_MONITORING.resolve("grafana/cartograph-fleet.json"),
                CHART_MONITORING.resolve("prometheus/alerts.yaml"))) {
            Matcher m = metric.matcher(Files.readString(f));
            while (m.find()) {
                names.add(m.group());
            }
        }
        return names;
    }

    /** Whether a series name (a histogram's {@code _bucket}, {@code _count} or {@code _sum} too) is in either scrape. */
    private static boolean exposed(String name, Exposition broker, Exposition agent) {
        return Exposition.family(name, broker.types()).isPresent()
                || Exposition.family(name, agent.types()).isPresent();
    }

    /**
     * Every way {@code /prometheus} differs from {@code carto fleet}'s JSON: per cluster and model each GPU state, the largest
     * free block, the nodes; per cluster readiness; the queue length; and no cluster or model it does not have.
     */
    static String differences(JsonNode fleet, Exposition e) {
        List<String> out = new ArrayList<>();
        int rows = 0;
        for (JsonNode c : fleet.path("clusters")) {
            String cluster = c.path("name").asText();
            check(
                    out,
                    e,
                    "cartograph_cluster_ready",
                    Map.of("cluster", cluster),
                    c.path("ready").asBoolean() ? 1 : 0);
            for (JsonNode m : c.path("gpuModels")) {
                String model = m.path("model").asText().isEmpty()
                        ? "none"
                        : m.path("model").asText();
                Map<String, String> t = Map.of("cluster", cluster, "gpu_model", model);
                for (String state : STATES) {
                    check(
                            out,
                            e,
                            "cartograph_cluster_gpus",
                            with(t, "state", state),
                            m.path(state).asLong());
                }
                check(
                        out,
                        e,
                        "cartograph_cluster_largest_free_block",
                        t,
                        m.path("largestFreeBlock").asLong());
                check(out, e, "cartograph_cluster_nodes", t, m.path("nodes").asLong());
                rows++;
            }
        }
        check(
                out,
                e,
                "cartograph_queue_gangs",
                Map.of("queue", "default"),
                fleet.path("queued").asLong());
        if (e.find("cartograph_cluster_gpus", Map.of()).size() != rows * STATES.size()) {
            out.add("cartograph_cluster_gpus has "
                    + e.find("cartograph_cluster_gpus", Map.of()).size() + " rows, the fleet " + rows + " x 4");
        }
        if (rows == 0) {
            out.add("the fleet has no GPU rows");
        }
        return String.join("; ", out);
    }

    private static void check(List<String> out, Exposition e, String name, Map<String, String> labels, long want) {
        double got = e.value(name, labels).orElse(Double.NaN);
        if (got != want) {
            out.add(name + labels + " = " + got + ", fleet says " + want);
        }
    }

    private static Map<String, String> with(Map<String, String> labels, String k, String v) {
        Map<String, String> m = new java.util.HashMap<>(labels);
        m.put(k, v);
        return m;
    }

    /** The fleet without what changes on every read (its time, clusters' heartbeats). */
    private static String stable(JsonNode fleet) {
        JsonNode copy = fleet.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) copy).remove("at");
        copy.path("clusters").forEach(c -> ((com.fasterxml.jackson.databind.node.ObjectNode) c).remove("heartbeat"));
        return copy.toString();
    }

    /** What {@code carto fleet -o json --broker URL --token-file FILE} prints, run in this JVM. */
    private static JsonNode cartoFleet(LocalFleet fleet) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new Carto())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(
                        "fleet",
                        "--broker",
                        fleet.brokerUrl(),
                        "--token-file",
                        fleet.token().file().toString(),
                        "-o",
                        "json");
        assertThat(exit).as(err.toString()).isZero();
        return Documents.json().readTree(out.toString());
    }

    /** A GET as {@code carto} sends it: {@code Authorization: Bearer TOKEN} (none when {@code token} is null). */
    private HttpResponse<String> get(LocalFleet fleet, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fleet.brokerUrl() + path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static GenericKubernetesResource submit(LocalFleet fleet, String example) throws Exception {
        try (InputStream in = Files.newInputStream(EXAMPLES.resolve(example))) {
            GenericKubernetesResource r =
                    fleet.hub().client().getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
            return fleet.hub().client().resource(r).create();
        }
    }

    private static String phase(LocalFleet fleet, GenericKubernetesResource r) {
        GenericKubernetesResource now = fleet.hub().client().resource(r).get();
        return now == null || now.getMetadata().getLabels() == null
                ? ""
                : now.getMetadata().getLabels().getOrDefault("cartograph.dev/phase", "");
    }
}
