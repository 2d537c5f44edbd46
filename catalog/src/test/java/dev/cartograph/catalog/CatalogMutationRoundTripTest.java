package dev.cartograph.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.mutate.Mutator;
import dev.cartograph.interpreter.mutate.PodPatch;
import dev.cartograph.interpreter.testing.SharedData;
import dev.cartograph.interpreter.view.InstanceView;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Shape-blind mutation on real upstream objects: a pod patch reaches every pod template the catalog
 * names, and removing exactly what it added gives back the original object, field for field.
 */
@Timeout(120)
class CatalogMutationRoundTripTest {
    private static final String LABEL = "cartograph.dev/placement";
    private static final PodPatch PATCH =
            PodPatch.EMPTY.withLabel(LABEL, "p-42").withSchedulerName("kai-scheduler");

    @TestFactory
    Stream<DynamicTest> patchReachesEveryTemplateAndChangesNothingElse() throws IOException {
        Path fixtures = SharedData.fixtures().orElse(null);
        assumeTrue(fixtures != null, SharedData.absent("fixtures"));
        Interpreter interpreter = Interpreter.of(Catalog.load().definitions());
        return FixtureIndex.read(fixtures).stream()
                .map(row -> DynamicTest.dynamicTest(row.file(), () -> {
                    JsonNode original;
                    try (InputStream in = Files.newInputStream(fixtures.resolve(row.file()))) {
                        original = Documents.read(in).get(0);
                    }
                    assumeTrue(
                            interpreter.definitionFor(original).isPresent(),
                            "no catalog definition for " + row.kind() + " yet");
                    JsonNode before = original.deepCopy();
                    Mutator.Result result = interpreter.patchPods(original, PATCH, Optional.empty());
                    assertThat(result.problems()).isEmpty();
                    assertThat(original).as("input untouched").isEqualTo(before);
                    Resolution r = interpreter.resolve(result.object());
                    for (InstanceView i : ((Resolution.Resolved) r).view().podInstances()) {
                        JsonNode template = i.podTemplate().orElseThrow();
                        assertThat(template.at("/metadata/labels").path(LABEL).asText())
                                .as(i.id())
                                .isEqualTo("p-42");
                        assertThat(template.at("/spec/schedulerName").asText())
                                .as(i.id())
                                .isEqualTo("kai-scheduler");
                    }
                    assertThat(undo(result.object(), before)).isEqualTo(before);
                }));
    }

    /** Takes back the patch's label and scheduler name, and the maps it had to create, wherever they are. */
    private static JsonNode undo(JsonNode patched, JsonNode original) {
        JsonNode copy = patched.deepCopy();
        strip(copy, original);
        return copy;
    }

    private static void strip(JsonNode node, JsonNode original) {
        if (node instanceof ObjectNode obj) {
            for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                strip(e.getValue(), original.path(e.getKey()));
            }
            if (obj.has(LABEL) && !original.has(LABEL)) {
                obj.remove(LABEL); // the label, in whatever map the definition keeps pod labels
            }
            if (obj.path("schedulerName").asText().equals("kai-scheduler")) {
                if (original.has("schedulerName")) {
                    obj.set("schedulerName", original.get("schedulerName")); // the patch replaced it
                } else {
                    obj.remove("schedulerName");
                }
            }
            // objects the patch had to create on the way, now empty again
            for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isObject() && e.getValue().isEmpty() && !original.has(e.getKey())) {
                    it.remove();
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                strip(node.get(i), original.path(i));
            }
        }
    }
}
