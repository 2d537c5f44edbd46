package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code carto usage --broker URL --since 7d [--by queue|namespace]}: GPU-hours per queue or hub namespace and GPU
 * model, as the broker counted them ({@code GET /api/v1/usage}; namespaces only those the caller may read workloads in).
 */
@Command(
        name = "usage",
        description = "Show GPU usage the broker counted: GPU-hours per queue (or namespace) and GPU model, from the"
                + " start of the UTC hour --since falls in.")
final class UsageCommand implements Callable<Integer> {
    @Mixin
    BrokerOptions broker;

    @Option(
            names = "--since",
            defaultValue = "7d",
            paramLabel = "WHEN",
            description = "an ISO instant (2026-12-01T00:00:00Z) or a duration back from now: 7d, 24h, 90m"
                    + " (default: ${DEFAULT-VALUE})")
    String since;

    @Option(
            names = "--by",
            defaultValue = "queue",
            paramLabel = "GROUP",
            converter = By.class,
            completionCandidates = By.class,
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    String by;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            paramLabel = "FORMAT",
            converter = Output.Plain.class,
            completionCandidates = Output.Plain.class,
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); json is the broker's answer")
    Output output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** queue or namespace. */
    static final class By implements ITypeConverter<String>, Iterable<String> {
        static final List<String> ALLOWED = List.of("queue", "namespace");

        @Override
        public String convert(String value) {
            String v = value.toLowerCase(Locale.ROOT);
            if (!ALLOWED.contains(v)) {
                throw new TypeConversionException("'" + value + "' is not one of " + String.join(", ", ALLOWED));
            }
            return v;
        }

        @Override
        public Iterator<String> iterator() {
            return ALLOWED.iterator();
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Errors errors = new Errors(output, out, spec.commandLine().getErr());
        JsonNode usage;
        try {
            usage = broker.api()
                    .get("api/v1/usage?since=" + URLEncoder.encode(since, StandardCharsets.UTF_8) + "&by=" + by);
        } catch (BrokerApi.Failure f) {
            return errors.fail(f.exit, "broker", f.getMessage());
        }
        out.print(output.structured() ? output.render(usage) : table(usage));
        out.flush();
        return Carto.OK;
    }

    static String table(JsonNode usage) {
        String by = usage.path("by").asText("queue");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {by.toUpperCase(Locale.ROOT), "GPU MODEL", "GPU-HOURS"});
        double total = 0;
        for (JsonNode r : usage.path("rows")) {
            double hours = r.path("gpuSeconds").asDouble() / 3600.0;
            total += hours;
            rows.add(new String[] {
                r.path(by).asText(),
                r.path("gpuModel").asText().isEmpty()
                        ? "(none)"
                        : r.path("gpuModel").asText(),
                String.format(Locale.ROOT, "%.2f", hours)
            });
        }
        return Columns.render(rows)
                + String.format(
                        Locale.ROOT,
                        "%nsince %s: %.2f GPU-hours in all%n",
                        usage.path("since").asText(),
                        total);
    }
}
