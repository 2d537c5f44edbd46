package dev.cartograph.cli.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.problem.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Workload Map definitions stored in the cluster ({@code kartas.run.ai}), read through the CLI's
 * discovery and reader and laid over the catalog by the one rule, {@link Definitions#overlaidBy}.
 * When the CRD is absent, listing is forbidden or the API is unreachable, there is one warning and
 * the catalog alone is used.
 */
public final class ClusterDefinitions {
    private ClusterDefinitions() {}

    /** The catalog overridden by valid cluster definitions; warnings and invalid ones are reported. */
    public static Definitions.Loaded overlay(Definitions.Loaded catalog, ClusterReader reader, ApiTypes types) {
        List<Problem> problems = new ArrayList<>(catalog.problems());
        List<JsonNode> docs;
        try {
            if (!types.of(Definitions.KARTA).served()) {
                problems.add(Problem.warning(
                        "cluster", "", "no kartas.run.ai CRD in this cluster; using the built-in catalog"));
                return new Definitions.Loaded(catalog.definitions(), problems);
            }
            docs = reader.list(types.of(Definitions.KARTA), Optional.empty(), Optional.empty());
        } catch (Kube.ClusterError e) {
            String why = e.code() == 404
                    ? "no kartas.run.ai CRD in this cluster"
                    : "cannot list kartas.run.ai: " + e.getMessage();
            problems.add(Problem.warning("cluster", "", why + "; using the built-in catalog"));
            return new Definitions.Loaded(catalog.definitions(), problems);
        }
        Definitions.Loaded overlaid = catalog.definitions().overlaidBy(docs);
        problems.addAll(overlaid.problems());
        return new Definitions.Loaded(overlaid.definitions(), problems);
    }
}
