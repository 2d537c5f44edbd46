package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.cli.kube.ApiType;
import dev.cartograph.cli.kube.ApiTypes;
import dev.cartograph.cli.kube.ClusterDefinitions;
import dev.cartograph.cli.kube.ClusterOptions;
import dev.cartograph.cli.kube.ClusterReader;
import dev.cartograph.cli.kube.ClusterSession;
import dev.cartograph.cli.kube.Ownership;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.problem.Problem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One command's view of a live cluster: its definitions (catalog + kartas), the kinds it serves,
 * and reading workloads with their pods. Closed when the command ends. A cluster call that fails
 * throws {@link dev.cartograph.cli.kube.Kube.ClusterError}. Not thread-safe.
 */
final class Live implements AutoCloseable {
    private final ClusterSession session;
    final ClusterReader reader;
    final ApiTypes types;
    final Definitions.Loaded definitions;
    final Interpreter interpreter;

    private Live(ClusterSession session, Definitions.Loaded extra) {
        this.session = session;
        this.reader = session.reader();
        this.types = session.types();
        this.definitions = withExtra(ClusterDefinitions.overlay(Catalog.load(), reader, types), extra);
        this.interpreter = Interpreter.of(definitions.definitions());
    }

    static Live connect(ClusterOptions options, Definitions.Loaded extra) {
        ClusterSession session = ClusterSession.open(options);
        try {
            return new Live(session, extra);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    private static Definitions.Loaded withExtra(Definitions.Loaded base, Definitions.Loaded extra) {
        List<Problem> problems = new ArrayList<>(base.problems());
        problems.addAll(extra.problems());
        return new Definitions.Loaded(base.definitions().overriddenBy(extra.definitions()), problems);
    }

    String defaultNamespace() {
        return reader.defaultNamespace();
    }

    /** The served kinds a TYPE token names, preferring served versions; empty when none does. */
    List<ApiType> typesFor(String token) {
        List<ApiType> matching = kinds().stream().filter(t -> t.matches(token)).toList();
        List<ApiType> served = matching.stream().filter(ApiType::served).toList();
        return served.isEmpty() ? matching.stream().limit(1).toList() : served;
    }

    /** Every kind with a definition, as this cluster serves it. */
    List<ApiType> kinds() {
        return definitions.definitions().all().stream()
                .map(WorkloadDefinition::kind)
                .map(types::of)
                .sorted(Comparator.comparing((ApiType t) -> t.gvk().kind())
                        .thenComparing(t -> t.gvk().version()))
                .toList();
    }

    boolean isWorkloadKind(String apiVersion, String kind) {
        return definitions
                .definitions()
                .find(GroupVersionKind.of(apiVersion, kind))
                .isPresent();
    }

    List<JsonNode> pods(Optional<String> namespace) {
        return reader.list(types.of(new GroupVersionKind("", "v1", "Pod")), namespace, Optional.empty());
    }

    Ownership ownership(List<JsonNode> pods, Optional<String> namespace) {
        return Ownership.index(pods, reader, types, namespace);
    }

    @Override
    public void close() {
        session.close();
    }
}
