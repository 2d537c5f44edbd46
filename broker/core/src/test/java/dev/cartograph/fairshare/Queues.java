package dev.cartograph.fairshare;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.util.Arrays;
import java.util.List;

/** Queue objects written as YAML, read as the broker reads them. */
final class Queues {
    private Queues() {}

    static JsonNode yaml(String text) {
        try {
            return Documents.yaml().readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static QueueSpecs.Read read(String yaml) {
        return QueueSpecs.read(yaml(yaml));
    }

    static QueueSpec spec(String yaml) {
        return ((QueueSpecs.Valid) read(yaml)).spec();
    }

    static QueueTree tree(String... yamls) {
        List<QueueSpecs.Read> read = Arrays.stream(yamls).map(Queues::read).toList();
        return QueueTree.of(read);
    }
}
