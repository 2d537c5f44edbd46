package dev.cartograph.mock.table;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import java.util.List;

/**
 * The columns of one resource type's server-side Table, as a Kubernetes 1.32 API server sends
 * them. Immutable; thread-safe.
 */
public final class Columns {
    private final List<Column> columns;

    private Columns(List<Column> columns) {
        this.columns = List.copyOf(columns);
    }

    /** A built-in type by group ({@code ""} for core) and plural: pods, nodes, namespaces, events; others Name, Age. */
    public static Columns builtIn(String group, String plural) {
        return new Columns(BuiltInColumns.of(group, plural));
    }

    /** A custom resource version with these {@code additionalPrinterColumns} (empty: Name, Age). */
    public static Columns customResource(List<CustomResourceColumnDefinition> printerColumns) {
        return new Columns(CustomResourceColumns.of(printerColumns));
    }

    /** The column names, in order (for tests and diagnostics). */
    public List<String> names() {
        return columns.stream().map(Column::name).toList();
    }

    List<Column> list() {
        return columns;
    }
}
