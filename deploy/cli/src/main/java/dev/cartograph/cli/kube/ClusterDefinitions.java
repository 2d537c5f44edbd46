package dev.cartograph.cli.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Problem;
import dev.cartograph.interpreter.definition.GroupVersionKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Workload Map definitions stored in the cluster ({@code kartas.run.ai}, origin {@code cluster}),
 * which override the catalog per kind. When the CRD is absent, listing is forbidden or the API is
 * unreachable, there is one warning and the catalog alone is used.
 */
public final class ClusterDefinitions {
    static final ApiType KARTA = new ApiType(new GroupVersionKind("run.ai", "v1alpha1", "Karta"), "kartas", List.of(), false, true);

    private ClusterDefinitions() {
    }

    /** The catalog overridden by valid cluster definitions; warnings and invalid ones are reported. */
    public static Definitions.Loaded overlay(Definitions.Loaded catalog, ClusterReader reader, ApiTypes types) {
        List<Problem> problems = new ArrayList<>(catalog.problems());
        List<JsonNode> docs;
        try {
            if (!types.of(KARTA.gvk()).served()) {
                problems.add(Problem.warning("cluster", "", "no kartas.run.ai CRD in this cluster; using the built-in catalog"));
                return new Definitions.Loaded(catalog.definitions(), problems);
            }
            docs = reader.list(types.of(KARTA.gvk()), Optional.empty(), Optional.empty());
        } catch (Kube.ClusterError e) {
            String why = e.code() == 404 ? "no kartas.run.ai CRD in this cluster" : "cannot list kartas.run.ai: " + e.getMessage();
            problems.add(Problem.warning("cluster", "", why + "; using the built-in catalog"));
            return new Definitions.Loaded(catalog.definitions(), problems);
        }
        Definitions.Loaded cluster = Definitions.parse(docs, "cluster");
        cluster.problems().forEach(p -> problems.add(p.isError()
                ? Problem.error(p.subject(), p.field(), p.message() + " (cluster definition skipped)") : p));
        return new Definitions.Loaded(catalog.definitions().overriddenBy(cluster.definitions()), problems);
    }
}
