package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The columns of a custom resource as the apiextensions API server builds them: {@code Name},
 * then the version's {@code additionalPrinterColumns}; a version that declares none gets a single
 * {@code Age} column (the server's default), one that declares some gets no extra Age. A cell is
 * the first value the column's JSONPath selects, converted by the column type like the server's
 * {@code cellForJSONValue}: strings print any value (lists and maps as compact JSON), integers
 * truncate, dates become ages; a missing value or a type mismatch is an empty cell. Pure; thread-safe.
 */
final class CustomResourceColumns {
    private CustomResourceColumns() {}

    static List<Column> of(List<CustomResourceColumnDefinition> printerColumns) {
        List<Column> columns = new ArrayList<>();
        columns.add(Column.nameColumn());
        if (printerColumns.isEmpty()) {
            columns.add(Column.ageColumn());
            return columns;
        }
        printerColumns.stream()
                .filter(Objects::nonNull)
                .map(CustomResourceColumns::column)
                .forEach(columns::add);
        return columns;
    }

    private static Column column(CustomResourceColumnDefinition definition) {
        String type = Optional.ofNullable(definition.getType()).orElse("string");
        Optional<SimpleJsonPath> path =
                Optional.ofNullable(definition.getJsonPath()).flatMap(SimpleJsonPath::compile);
        Column.Cell cell = (object, now) -> path.flatMap(p -> p.first(object))
                .map(value -> convert(type, value, now))
                .orElseGet(Cells::none);
        return new Column(
                Optional.ofNullable(definition.getName()).orElse(""),
                type,
                Optional.ofNullable(definition.getFormat()).orElse(""),
                Optional.ofNullable(definition.getDescription()).orElse(""),
                Optional.ofNullable(definition.getPriority()).orElse(0),
                cell);
    }

    static JsonNode convert(String type, JsonNode value, Instant now) {
        if (value.isNull()) {
            return Cells.none();
        }
        return switch (type) {
            case "string" -> Cells.text(value.isContainerNode() ? value.toString() : value.asText());
            case "integer" -> value.isNumber() ? Cells.integer(value.longValue()) : Cells.none();
            case "number" -> value.isNumber() ? value : Cells.none();
            case "boolean" -> value.isBoolean() ? value : Cells.none();
            case "date" -> value.isTextual() ? Cells.text(Ages.since(value, now)) : Cells.none();
            default -> Cells.none();
        };
    }
}
