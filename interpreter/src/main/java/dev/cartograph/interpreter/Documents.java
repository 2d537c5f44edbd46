package dev.cartograph.interpreter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads YAML or JSON text into object trees: several documents separated by {@code ---}, and
 * {@code kind: List} wrappers (as {@code kubectl get -o yaml} prints) are unwrapped. YAML is read
 * with SnakeYAML (Jackson's tree reader does not resolve anchors and aliases), the way kubectl
 * reads it: aliases resolved, timestamps kept as text, and alias expansion bounded. Thread-safe.
 */
public final class Documents {
    private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_TEXT = 64 << 20;

    private Documents() {}

    /** Every object in the stream; blank documents are skipped. */
    public static List<JsonNode> read(InputStream in) throws IOException {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        List<JsonNode> docs = new ArrayList<>();
        if (text.stripLeading().startsWith("{") || text.stripLeading().startsWith("[")) {
            // JSON (one or more values): read as JSON, where tabs and other YAML-hostile text are fine
            try (var values = JSON.readerFor(JsonNode.class).readValues(text)) {
                while (values.hasNextValue()) {
                    docs.add((JsonNode) values.nextValue());
                }
            }
        } else {
            try {
                for (Object raw : loader().loadAll(new java.io.StringReader(text))) {
                    if (raw != null) {
                        docs.add(JSON.valueToTree(raw));
                    }
                }
            } catch (YAMLException | IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode doc : docs) {
            if (doc.isObject()
                    && doc.path("kind").asText("").endsWith("List")
                    && doc.path("items").isArray()) {
                doc.get("items").forEach(out::add);
            } else if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                out.add(doc);
            }
        }
        return out;
    }

    public static ObjectMapper json() {
        return JSON;
    }

    public static YAMLMapper yaml() {
        return YAML;
    }

    /** A new loader (SnakeYAML loaders are not thread-safe). */
    private static Yaml loader() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_TEXT);
        options.setAllowDuplicateKeys(false);
        return new Yaml(
                new SafeConstructor(options),
                new Representer(new DumperOptions()),
                new DumperOptions(),
                options,
                new TextTimestamps());
    }

    /** The default resolver, but timestamps stay strings, as they do in Kubernetes objects. */
    private static final class TextTimestamps extends Resolver {
        @Override
        public void addImplicitResolver(Tag tag, java.util.regex.Pattern regexp, String first, int limit) {
            if (!Tag.TIMESTAMP.equals(tag)) {
                super.addImplicitResolver(tag, regexp, first, limit);
            }
        }
    }
}
