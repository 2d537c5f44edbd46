package dev.cartograph.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * What {@code -o}/{@code --output} may ask for. Each command names the values it accepts by a
 * converter ({@link Plain} or {@link WithWide}); picocli refuses any other value as a usage error
 * (exit 2) whose message lists the allowed ones, and prints them in {@code --help}. Immutable.
 */
enum Output {
    TABLE,
    WIDE,
    JSON,
    YAML;

    /** The word on the command line. */
    String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** JSON or YAML: the machine-readable forms, which also carry errors on stdout. */
    boolean structured() {
        return this == JSON || this == YAML;
    }

    /** {@code body} as this form prints it (JSON or YAML), ending in a newline. */
    String render(JsonNode body) {
        try {
            return this == YAML
                    ? Documents.yaml().writeValueAsString(body)
                    : Documents.json().writerWithDefaultPrettyPrinter().writeValueAsString(body) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree that cannot be written: " + e.getMessage(), e);
        }
    }

    /** Converts the command-line word, accepting only {@code allowed}; also the completion candidates. */
    abstract static class Choice implements ITypeConverter<Output>, Iterable<String> {
        private final List<Output> allowed;

        Choice(Output... allowed) {
            this.allowed = List.of(allowed);
        }

        @Override
        public Output convert(String value) {
            for (Output o : allowed) {
                if (o.text().equals(value)) {
                    return o;
                }
            }
            throw new TypeConversionException("'" + value + "' is not one of " + String.join(", ", this));
        }

        @Override
        public Iterator<String> iterator() {
            return allowed.stream()
                    .map(Output::text)
                    .collect(Collectors.toList())
                    .iterator();
        }
    }

    /** table, json or yaml. */
    static final class Plain extends Choice {
        Plain() {
            super(TABLE, JSON, YAML);
        }
    }

    /** table, wide, json or yaml (a listing with more columns). */
    static final class WithWide extends Choice {
        WithWide() {
            super(TABLE, WIDE, JSON, YAML);
        }
    }
}
