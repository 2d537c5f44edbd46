package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

final class ResolveYaml {
    private ResolveYaml() {}

    static JsonNode one(String yaml) throws Exception {
        return Documents.read(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }
}
