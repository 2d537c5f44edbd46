package dev.cartograph.interpreter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.view.Phase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Workload Map's recordings: {@code <definition>/<version>/<state>.yaml}, each with STATE events
 * holding an object and the statuses Workload Map matched ({@code phases}) and chose ({@code state}).
 * The older names Pending and Progressing are read as Initializing, as the current vocabulary does.
 */
public final class RecordedEvents {
    private RecordedEvents() {}

    public record StateEvent(int index, JsonNode object, Set<Phase> phases, Phase state) {}

    public record Recording(Path file, String definition, List<StateEvent> events) {
        public String label(Path root) {
            return root.relativize(file).toString();
        }
    }

    public static List<Recording> all(Path recorded) throws IOException {
        List<Recording> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(recorded)) {
            for (Path file :
                    walk.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                Path rel = recorded.relativize(file);
                if (rel.getNameCount() != 3 || rel.getName(0).toString().startsWith("_")) {
                    continue;
                }
                out.add(new Recording(file, rel.getName(0).toString(), events(file)));
            }
        }
        return out;
    }

    static List<StateEvent> events(Path file) throws IOException {
        JsonNode doc;
        try (InputStream in = Files.newInputStream(file)) {
            doc = Documents.read(in).get(0);
        }
        List<StateEvent> events = new ArrayList<>();
        int i = 0;
        for (JsonNode e : doc.path("events")) {
            if ("STATE".equals(e.path("kind").asText())) {
                Set<Phase> phases = new LinkedHashSet<>();
                e.path("phases").forEach(p -> phases.add(phase(p.asText())));
                events.add(new StateEvent(
                        i, e.get("object"), phases, phase(e.path("state").asText())));
            }
            i++;
        }
        return events;
    }

    /**
     * A list of known exceptions ({@code file} relative to recorded/, {@code events} indices) under
     * {@code key} in a YAML test resource, by file.
     */
    public static java.util.Map<String, Set<Integer>> exceptions(Class<?> owner, String resource, String key)
            throws IOException {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            return exceptions(in, key);
        }
    }

    public static java.util.Map<String, Set<Integer>> exceptions(InputStream in, String key) throws IOException {
        java.util.Map<String, Set<Integer>> out = new java.util.HashMap<>();
        for (JsonNode entry : Documents.read(in).get(0).path(key)) {
            Set<Integer> events = new java.util.TreeSet<>();
            entry.path("events").forEach(n -> events.add(n.asInt()));
            out.put(entry.path("file").asText(), events);
        }
        return out;
    }

    public static Phase phase(String recorded) {
        if (recorded.equalsIgnoreCase("Pending") || recorded.equalsIgnoreCase("Progressing")) {
            return Phase.INITIALIZING;
        }
        return Phase.parse(recorded)
                .orElseThrow(() -> new IllegalArgumentException("unknown recorded phase " + recorded));
    }
}
