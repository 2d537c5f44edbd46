package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code carto fleet --broker URL}: every cluster's readiness and GPUs per model, as the broker sees them
 * (any caller the broker authenticates may see them); {@code --by-domain}: free GPUs per topology domain.
 */
@Command(
        name = "fleet",
        description =
                "Show the fleet as the broker sees it: per cluster and GPU model, total/used/reserved/free GPUs, "
                        + "the largest free block on one node, and gangs still pending. --by-domain: the same per topology "
                        + "domain (zone, rack, NVLink clique: the broker's cartograph.broker.topology-levels), to see fragmentation.")
final class FleetCommand implements Callable<Integer> {
    @Mixin
    BrokerOptions broker;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            paramLabel = "FORMAT",
            converter = Output.Plain.class,
            completionCandidates = Output.Plain.class,
            description =
                    "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); json is the fleet snapshot carto plan --fleet reads")
    Output output;

    @Option(
            names = "--by-domain",
            description = "one row per cluster, topology level, domain and GPU model: free of total GPUs, the largest "
                    + "free block on one node, wholly free nodes; json is GET /api/v1/fleet/domains")
    boolean byDomain;

    @Option(
            names = "--level",
            paramLabel = "LABEL",
            description = "with --by-domain: only this level (a node label key, e.g. nvidia.com/gpu.clique)")
    String level;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Errors errors = new Errors(output, out, spec.commandLine().getErr());
        if (level != null && !byDomain) {
            return errors.fail(Carto.UNREADABLE, "usage", "--level needs --by-domain");
        }
        String path = !byDomain
                ? "api/v1/fleet"
                : level == null
                        ? "api/v1/fleet/domains"
                        : "api/v1/fleet/domains?level=" + URLEncoder.encode(level, StandardCharsets.UTF_8);
        JsonNode fleet;
        try {
            fleet = broker.api().get(path);
        } catch (BrokerApi.Failure f) {
            return errors.fail(f.exit, "broker", f.getMessage());
        }
        if (output.structured()) {
            out.print(output.render(fleet));
        } else {
            out.print(byDomain ? domainTable(fleet) : table(fleet));
        }
        out.flush();
        return Carto.OK;
    }

    static String table(JsonNode fleet) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "CLUSTER", "READY", "GPU MODEL", "NODES", "TOTAL", "USED", "RESERVED", "FREE", "LARGEST BLOCK", "PENDING"
        });
        for (JsonNode c : fleet.path("clusters")) {
            boolean first = true;
            for (JsonNode m : c.path("gpuModels")) {
                if (m.path("total").asLong() == 0 && c.path("gpuModels").size() > 1) {
                    continue; // CPU-only nodes of a GPU cluster
                }
                rows.add(new String[] {
                    first ? c.path("name").asText() : "",
                    first ? (c.path("ready").asBoolean() ? "True" : "False") : "",
                    m.path("model").asText().isEmpty()
                            ? "(none)"
                            : m.path("model").asText(),
                    m.path("nodes").asText(),
                    m.path("total").asText(),
                    m.path("allocated").asText(),
                    m.path("reserved").asText(),
                    m.path("free").asText(),
                    m.path("largestFreeBlock").asText(),
                    first ? c.path("pending").asText() : ""
                });
                first = false;
            }
        }
        JsonNode t = fleet.path("totals");
        StringBuilder sb = new StringBuilder(Columns.render(rows));
        sb.append("\n")
                .append(String.format(
                        "%d clusters, %s GPUs: %s used, %s reserved, %s free; %s queued%n",
                        fleet.path("clusters").size(),
                        t.path("total").asText("0"),
                        t.path("allocated").asText("0"),
                        t.path("reserved").asText("0"),
                        t.path("free").asText("0"),
                        fleet.path("queued").asText("0")));
        return sb.toString();
    }

    /** {@code GET /api/v1/fleet/domains} as a table; rows of nodes without GPUs are left out (the JSON has them). */
    static String domainTable(JsonNode domains) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"CLUSTER", "LEVEL", "DOMAIN", "GPU-MODEL", "NODES", "FREE/TOTAL", "LARGEST", "WHOLE-FREE"
        });
        for (JsonNode d : domains.path("domains")) {
            if (d.path("totalGpus").asLong() == 0) {
                continue;
            }
            rows.add(new String[] {
                d.path("cluster").asText(),
                d.path("level").asText(),
                d.path("domain").asText(),
                d.path("gpuModel").asText().isEmpty()
                        ? "(none)"
                        : d.path("gpuModel").asText(),
                d.path("nodes").asText(),
                d.path("freeGpus").asText() + "/" + d.path("totalGpus").asText(),
                d.path("largestFreeBlock").asText(),
                d.path("wholeFreeNodes").asText()
            });
        }
        List<String> levels = new ArrayList<>();
        domains.path("levels").forEach(l -> levels.add(l.asText()));
        if (rows.size() == 1) {
            return "no GPU node carries a topology label (levels: " + String.join(", ", levels)
                    + "; the broker's cartograph.broker.topology-levels)\n";
        }
        return Columns.render(rows);
    }
}
