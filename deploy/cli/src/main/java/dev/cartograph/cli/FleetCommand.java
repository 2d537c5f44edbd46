package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code carto fleet --broker URL}: every cluster's readiness and GPUs per model, as the broker sees them
 * (any caller the broker authenticates may see them).
 */
@Command(
        name = "fleet",
        description = "Show the fleet as the broker sees it: per cluster and GPU model, total/used/reserved/free GPUs, "
                + "the largest free block on one node, and gangs still pending.")
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

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Errors errors = new Errors(output, out, spec.commandLine().getErr());
        JsonNode fleet;
        try {
            fleet = broker.api().get("api/v1/fleet");
        } catch (BrokerApi.Failure f) {
            return errors.fail(f.exit, "broker", f.getMessage());
        }
        if (output.structured()) {
            out.print(output.render(fleet));
        } else {
            out.print(table(fleet));
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
}
