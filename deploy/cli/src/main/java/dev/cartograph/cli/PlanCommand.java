package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.Demands;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.TopologyAsks;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.Wire;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code carto plan -f WORKLOAD --fleet SNAPSHOT.json}: where the whole gang would go, and why not elsewhere. Places nothing. */
@Command(
        name = "plan",
        description =
                "Decide where a workload's whole gang fits, on a fleet snapshot or a broker's current fleet (nothing is placed).")
final class PlanCommand implements Callable<Integer> {
    @Option(
            names = {"-f", "--filename"},
            required = true,
            paramLabel = "FILE|-")
    String file;

    @Option(
            names = "--fleet",
            paramLabel = "SNAPSHOT.json",
            description = "a fleet snapshot (docs/protocol.md, or a saved carto fleet -o json)")
    Path fleet;

    /** Asks a running broker to plan on its current fleet (needs create on the kind in its namespace). */
    @Mixin
    BrokerOptions broker;

    @Option(names = "--policy", defaultValue = "BIN_PACK", description = "BIN_PACK (default) or SPREAD")
    Planner.Policy policy;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            paramLabel = "FORMAT",
            converter = Output.Plain.class,
            completionCandidates = Output.Plain.class,
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Output output;

    @Mixin
    DefinitionOptions definitions;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Errors errors = new Errors(output, out, spec.commandLine().getErr());
        List<JsonNode> objects;
        try {
            objects = Inputs.objects(file);
        } catch (Inputs.Unreadable e) {
            return errors.fail(Carto.UNREADABLE, "unreadable", e.getMessage());
        }
        if (objects.size() != 1) {
            return errors.fail(
                    Carto.UNREADABLE,
                    "usage",
                    "plan takes one workload; " + file + " has " + objects.size() + " objects");
        }
        if (fleet != null && broker.given() || fleet == null && broker.url().isEmpty()) {
            return errors.fail(
                    Carto.UNREADABLE,
                    "usage",
                    "give exactly one of --fleet SNAPSHOT.json or --broker URL (or set " + BrokerOptions.URL_ENV + ")");
        }
        if (fleet == null) {
            return viaBroker(objects.get(0), out, errors);
        }
        if (!Files.isReadable(fleet)) {
            return errors.fail(Carto.UNREADABLE, "unreadable", fleet + ": no such readable file");
        }
        Decoded<List<ClusterState>> decoded = Wire.decodeFleet(Files.readAllBytes(fleet));
        if (decoded instanceof Decoded.Failed<List<ClusterState>> failed) {
            return errors.fail(Carto.UNREADABLE, "unreadable", fleet + ": not a fleet snapshot: " + failed.reason());
        }
        JsonNode object = objects.get(0);
        GroupVersionKind kind = GroupVersionKind.of(
                object.path("apiVersion").asText(""), object.path("kind").asText(""));
        Definitions.Loaded loaded = definitions.load(kind::equals);
        Resolution r = Interpreter.of(loaded.definitions()).resolve(object);
        if (!(r instanceof Resolution.Resolved resolved)) {
            return errors.fail(
                    r instanceof Resolution.NoDefinition ? Carto.NO_DEFINITION : Carto.INVALID,
                    r instanceof Resolution.NoDefinition ? "no_definition" : "invalid_object",
                    r.problems().get(0).toString());
        }
        TopologyAsks.Asked topology = TopologyAsks.of(object, resolved.view());
        if (topology.problem().isPresent()) {
            return errors.fail(
                    Carto.INVALID, "invalid_object", topology.problem().get());
        }
        Decision d = Planner.plan(
                Demands.of(resolved.view()),
                Demands.clusterSelector(object),
                dev.cartograph.placement.PlanningFleet.of(((Decoded.Ok<List<ClusterState>>) decoded).value()),
                policy,
                dev.cartograph.placement.GpuBudget.NONE,
                topology.topology());
        if (output.structured()) {
            out.print(output.render(json(d)));
        } else {
            out.print(table(d));
        }
        out.flush();
        return Carto.OK;
    }

    private int viaBroker(JsonNode object, PrintWriter out, Errors errors) throws Exception {
        JsonNode answer;
        try {
            answer = broker.api().post("api/v1/plan?policy=" + policy.name(), object.toString());
        } catch (BrokerApi.Failure f) {
            return errors.fail(f.exit, "broker", f.getMessage());
        }
        java.util.Optional<Decision> d = dev.cartograph.placement.DecisionJson.decode(answer);
        if (d.isEmpty()) {
            return errors.fail(Carto.CLUSTER_ERROR, "broker", "the broker's answer is not a decision: " + answer);
        }
        if (output.structured()) {
            out.print(output.render(json(d.get())));
        } else {
            out.print(table(d.get()));
        }
        out.flush();
        return Carto.OK;
    }

    static ObjectNode json(Decision d) {
        return dev.cartograph.placement.DecisionJson.encode(d);
    }

    static String table(Decision d) {
        StringBuilder sb = new StringBuilder();
        sb.append(d.chosen().map(c -> "Placed on " + c).orElse("Unschedulable: fits on no cluster now"))
                .append("\n\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"CLUSTER", "FITS", "REASON"});
        d.clusters()
                .forEach(v -> rows.add(new String[] {
                    v.cluster() + (d.chosen().filter(v.cluster()::equals).isPresent() ? " *" : ""),
                    v.fits() ? "yes" : "no",
                    v.reason()
                }));
        sb.append(Columns.render(rows));
        if (d instanceof Decision.Placed p) {
            List<String[]> a = new ArrayList<>();
            a.add(new String[] {"COMPONENT", "INSTANCE", "POD", "NODE"});
            p.assignments()
                    .forEach(x -> a.add(new String[] {x.component(), x.instance(), String.valueOf(x.pod()), x.node()}));
            sb.append("\n").append(Columns.render(a));
        }
        return sb.toString();
    }
}
