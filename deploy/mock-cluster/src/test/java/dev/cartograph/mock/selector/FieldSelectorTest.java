package dev.cartograph.mock.selector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FieldSelectorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyRequirementMustHold() throws Exception {
        JsonNode event = JSON.readTree("""
                {"metadata": {"name": "e", "namespace": "ml"}, "type": "Warning",
                 "involvedObject": {"kind": "PyTorchJob", "name": "bert", "namespace": "ml", "uid": "u-1"}}
                """);
        // the selector kubectl 1.32 describe sends
        assertThat(select("involvedObject.name=bert,involvedObject.namespace=ml,involvedObject.kind=PyTorchJob,"
                                + "involvedObject.uid=u-1")
                        .matches(event))
                .isTrue();
        assertThat(select("involvedObject.name=bert,involvedObject.uid=u-2").matches(event))
                .isFalse();
        assertThat(select("type!=Normal,metadata.namespace==ml").matches(event)).isTrue();
        assertThat(select("type!=Warning").matches(event)).isFalse();
        assertThat(select("").matches(event)).isTrue();
    }

    @Test
    void missingFieldsReadAsEmptyAndEscapesAreValues() throws Exception {
        JsonNode node = JSON.readTree("{\"involvedObject\": {\"name\": \"a,b=c\"}}");
        assertThat(select("involvedObject.namespace=").matches(node)).isTrue();
        assertThat(select("involvedObject.name=a\\,b\\=c").matches(node)).isTrue();
    }

    @Test
    void aTermWithoutOperatorIsInvalid() {
        assertThat(FieldSelector.parse("involvedObject.name")).isInstanceOf(FieldSelector.Invalid.class);
        assertThat(((FieldSelector.Invalid) FieldSelector.parse("a=1,oops")).reason())
                .contains("can't understand 'oops'");
    }

    private static FieldSelector select(String text) {
        return ((FieldSelector.Valid) FieldSelector.parse(text)).selector();
    }
}
