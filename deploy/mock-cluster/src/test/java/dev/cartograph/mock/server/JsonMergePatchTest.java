package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 7386's own examples (Appendix A), and the list an agent's re-apply must not grow. */
class JsonMergePatchTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"a\":\"b\"}|{\"a\":\"c\"}|{\"a\":\"c\"}",
                "{\"a\":\"b\"}|{\"b\":\"c\"}|{\"a\":\"b\",\"b\":\"c\"}",
                "{\"a\":\"b\"}|{\"a\":null}|{}",
                "{\"a\":\"b\",\"b\":\"c\"}|{\"a\":null}|{\"b\":\"c\"}",
                "{\"a\":[\"b\"]}|{\"a\":\"c\"}|{\"a\":\"c\"}",
                "{\"a\":\"c\"}|{\"a\":[\"b\"]}|{\"a\":[\"b\"]}",
                "{\"a\":{\"b\":\"c\"}}|{\"a\":{\"b\":\"d\",\"c\":null}}|{\"a\":{\"b\":\"d\"}}",
                "{\"a\":[{\"b\":\"c\"}]}|{\"a\":[1]}|{\"a\":[1]}",
                "[\"a\",\"b\"]|[\"c\",\"d\"]|[\"c\",\"d\"]",
                "{\"a\":\"b\"}|[\"c\"]|[\"c\"]",
                "{\"e\":null}|{\"a\":1}|{\"e\":null,\"a\":1}",
                "[1,2]|{\"a\":\"b\",\"c\":null}|{\"a\":\"b\"}",
                "{}|{\"a\":{\"bb\":{\"ccc\":null}}}|{\"a\":{\"bb\":{}}}",
                // the same containers applied again: replaced, never appended
                "{\"containers\":[{\"name\":\"c\"}]}|{\"containers\":[{\"name\":\"c\"}]}|{\"containers\":[{\"name\":\"c\"}]}"
            })
    void appliesAsRfc7386Says(String target, String patch, String result) throws Exception {
        JsonNode t = JSON.readTree(target);
        JsonNode before = t.deepCopy();
        assertThat(JsonMergePatch.apply(t, JSON.readTree(patch))).isEqualTo(JSON.readTree(result));
        assertThat(t).isEqualTo(before);
    }
}
