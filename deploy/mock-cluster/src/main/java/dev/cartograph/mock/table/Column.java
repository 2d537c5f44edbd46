package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One Table column: its {@code TableColumnDefinition} fields and how to compute a row's cell.
 * Columns with priority above 0 are the ones kubectl shows only with {@code -o wide}; the server
 * always sends every cell. Immutable; thread-safe.
 *
 * @param type   an OpenAPI type: string, integer, number, boolean
 * @param format {@code name} for the name column, otherwise usually empty
 */
record Column(String name, String type, String format, String description, int priority, Cell cell) {
    /** Computes a cell from the object and the time the table is rendered; returns a JSON null for "no value". */
    @FunctionalInterface
    interface Cell {
        JsonNode of(JsonNode object, Instant now);
    }

    Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(cell, "cell");
    }

    static Column nameColumn() {
        return new Column(
                "Name",
                "string",
                "name",
                "Name must be unique within a namespace. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
                0,
                (object, now) -> Cells.text(object.path("metadata").path("name").asText()));
    }

    static Column ageColumn() {
        return new Column(
                "Age",
                "string",
                "",
                "CreationTimestamp is a timestamp representing the server time when this object was created.",
                0,
                (object, now) -> Cells.text(Ages.since(object.path("metadata").get("creationTimestamp"), now)));
    }

    static Column text(String name, int priority, String description, Cell cell) {
        return new Column(name, "string", "", description, priority, cell);
    }
}
