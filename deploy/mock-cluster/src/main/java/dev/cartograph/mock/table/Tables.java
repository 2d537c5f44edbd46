package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * Renders objects as a {@code meta.k8s.io/v1 Table}, the answer to a GET with
 * {@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}: column definitions, and one row
 * per object with its cells and (by default) its metadata, which kubectl reads for the namespace
 * column and {@code -L}/{@code --show-labels}. Pure; thread-safe.
 *
 * <pre>{@code
 * ObjectNode table = Tables.ofList(Columns.builtIn("", "pods"), podList, IncludeObject.METADATA, clock.instant());
 * }</pre>
 */
public final class Tables {
    /** The content type of a Table response. */
    public static final String CONTENT_TYPE = "application/json;as=Table;v=v1;g=meta.k8s.io";

    private Tables() {}

    /** A table of a list's {@code items}, carrying the list's resourceVersion and continue token. */
    public static ObjectNode ofList(Columns columns, JsonNode list, IncludeObject include, Instant now) {
        ObjectNode table = header(columns, list.path("metadata"));
        ArrayNode rows = table.putArray("rows");
        list.path("items").forEach(item -> rows.add(row(columns, item, include, now)));
        return table;
    }

    /** A table with the one row of {@code object}. */
    public static ObjectNode ofObject(Columns columns, JsonNode object, IncludeObject include, Instant now) {
        ObjectNode table = header(columns, object.path("metadata"));
        table.putArray("rows").add(row(columns, object, include, now));
        return table;
    }

    private static ObjectNode header(Columns columns, JsonNode sourceMetadata) {
        ObjectNode table = Cells.FACTORY.objectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode metadata = table.putObject("metadata");
        for (String field : new String[] {"resourceVersion", "continue", "remainingItemCount"}) {
            if (sourceMetadata.hasNonNull(field)) {
                metadata.set(field, sourceMetadata.get(field));
            }
        }
        ArrayNode definitions = table.putArray("columnDefinitions");
        columns.list()
                .forEach(c -> definitions
                        .addObject()
                        .put("name", c.name())
                        .put("type", c.type())
                        .put("format", c.format())
                        .put("description", c.description())
                        .put("priority", c.priority()));
        return table;
    }

    private static ObjectNode row(Columns columns, JsonNode object, IncludeObject include, Instant now) {
        ObjectNode row = Cells.FACTORY.objectNode();
        ArrayNode cells = row.putArray("cells");
        columns.list().forEach(c -> cells.add(c.cell().of(object, now)));
        switch (include) {
            case OBJECT -> row.set("object", object);
            case METADATA ->
                row.putObject("object")
                        .put("kind", "PartialObjectMetadata")
                        .put("apiVersion", "meta.k8s.io/v1")
                        .set(
                                "metadata",
                                object.path("metadata").isObject()
                                        ? object.path("metadata").deepCopy()
                                        : Cells.FACTORY.objectNode());
            case NONE -> {}
        }
        return row;
    }
}
