package dev.cartograph.simulator.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Status shapes per workload definition, read from the classpath resource
 * {@code simulator-status/<definition name>.yaml} (the catalog's file name, e.g.
 * {@code kubeflow-org-pytorchjob-v1.yaml}); a definition without such a file has no shapes.
 * Thread-safe; each file is read once.
 */
public final class StatusLibrary {
    public static final String FOLDER = "simulator-status";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final ClassLoader loader;
    private final Map<String, Optional<StatusShapes>> cache = new ConcurrentHashMap<>();

    private StatusLibrary(ClassLoader loader) {
        this.loader = loader;
    }

    /** The shapes shipped with the simulator. */
    public static StatusLibrary builtIn() {
        return new StatusLibrary(StatusLibrary.class.getClassLoader());
    }

    /**
     * The shapes for a definition, if it has a file.
     *
     * @throws IllegalStateException when the shipped file is malformed (a defect: no retry helps)
     */
    public Optional<StatusShapes> forDefinition(String definitionName) {
        return cache.computeIfAbsent(definitionName, this::read);
    }

    private Optional<StatusShapes> read(String definitionName) {
        String resource = FOLDER + "/" + definitionName + ".yaml";
        try (InputStream in = loader.getResourceAsStream(resource)) {
            return in == null ? Optional.empty() : Optional.of(parse(YAML.readTree(in), resource));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    static StatusShapes parse(JsonNode doc, String resource) {
        if (doc == null || !doc.path("running").isObject()) {
            throw new IllegalStateException(resource + ": 'running' must be a status object");
        }
        Optional<JsonNode> completed = optionalShape(doc, "completed", resource);
        Optional<JsonNode> suspended = optionalShape(doc, "suspended", resource);
        Optional<JsonNode> resumed = optionalShape(doc, "resumed", resource);
        if (resumed.isPresent() && suspended.isEmpty()) {
            throw new IllegalStateException(resource + ": 'resumed' needs a 'suspended' status");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        doc.path("podLabels")
                .properties()
                .forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        return new StatusShapes(doc.get("running"), completed, suspended, resumed, labels);
    }

    private static Optional<JsonNode> optionalShape(JsonNode doc, String field, String resource) {
        JsonNode shape = doc.path(field);
        if (!shape.isMissingNode() && !shape.isObject()) {
            throw new IllegalStateException(resource + ": '" + field + "' must be a status object when present");
        }
        return shape.isObject() ? Optional.of(shape) : Optional.empty();
    }
}
