package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DocumentsTest {
    private static List<JsonNode> read(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsSeveralDocumentsAndUnwrapsLists() throws Exception {
        assertThat(read("a: 1\n---\n---\nkind: List\nitems: [{b: 2}, {c: 3}]\n"))
                .hasSize(3);
    }

    @Test
    void yamlAnchorsAndAliasesResolveToTheSameContent() throws Exception {
        JsonNode doc = read("x: &t {containers: [{name: c}]}\ny: *t\n").get(0);
        assertThat(doc.get("y")).isEqualTo(doc.get("x"));
    }

    @Test
    void timestampsStayTextAndJsonWithTabsReads() throws Exception {
        assertThat(read("t: 2026-09-16T11:02:03Z\n").get(0).get("t").asText()).isEqualTo("2026-09-16T11:02:03Z");
        assertThat(read("{\n\t\"a\": 1\n}\n{\"b\": 2}").get(1).get("b").asInt()).isEqualTo(2);
    }

    @Test
    void aliasBombsAreRefused() {
        StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'k'; c++) {
            char p = (char) (c - 1);
            bomb.append(c)
                    .append(": &")
                    .append(c)
                    .append(" [*")
                    .append(p)
                    .append(", *")
                    .append(p)
                    .append(", *")
                    .append(p)
                    .append(", *")
                    .append(p)
                    .append(", *")
                    .append(p)
                    .append(", *")
                    .append(p)
                    .append("]\n");
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> read(bomb.toString()))
                .isInstanceOf(java.io.IOException.class);
    }
}
