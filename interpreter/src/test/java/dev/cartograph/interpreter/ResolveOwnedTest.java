package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.testing.RecordedEvents;
import dev.cartograph.interpreter.testing.RecordedEvents.Recording;
import dev.cartograph.interpreter.testing.RecordedEvents.StateEvent;
import dev.cartograph.interpreter.testing.SharedData;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Interpreter#resolveOwned} gives the view {@link Interpreter#resolve} gives, keeping the
 * handed-over object's pod templates instead of copying them; {@code resolve} never keeps a node of
 * the caller's object.
 */
@Timeout(120)
class ResolveOwnedTest {

    @Test
    void aHandedOverObjectGivesTheSameViewWithoutCopies() throws Exception {
        Interpreter interpreter = ResolveTest.interpreter();
        JsonNode object = ResolveTest.yaml(ResolveTest.POOLS);
        Resolution copied = interpreter.resolve(object);
        JsonNode handedOver = object.deepCopy();
        Resolution kept = interpreter.resolveOwned(handedOver);
        assertThat(kept).isEqualTo(copied);

        // the first pool's template: the object's own spec node when handed over, a copy otherwise
        JsonNode spec =
                handedOver.path("spec").path("pools").get(0).path("template").path("spec");
        assertThat(spec.isObject()).isTrue();
        assertThat(pool(kept).podTemplate().orElseThrow().get("spec")).isSameAs(spec);
        assertThat(pool(copied).podTemplate().orElseThrow().get("spec"))
                .isEqualTo(spec)
                .isNotSameAs(object.path("spec")
                        .path("pools")
                        .get(0)
                        .path("template")
                        .path("spec"));
    }

    @Test
    void everyRecordedObjectGivesTheSameViewHandedOverAsCopied() throws Exception {
        Path recorded = SharedData.recorded().orElse(null);
        assumeTrue(recorded != null, SharedData.absent("recorded"));
        Interpreter interpreter = Interpreter.of(
                Definitions.load(recorded.resolve("_definitions")).definitions());
        int resolved = 0;
        for (Recording rec : RecordedEvents.all(recorded)) {
            for (StateEvent e : rec.events()) {
                Resolution copied = interpreter.resolve(e.object());
                assertThat(interpreter.resolveOwned(e.object().deepCopy()))
                        .as("event %d of %s", e.index(), rec.file())
                        .isEqualTo(copied);
                resolved += copied instanceof Resolution.Resolved ? 1 : 0;
            }
        }
        assertThat(resolved).isGreaterThan(250); // 293 STATE objects have a definition (carto bench counts them)
    }

    private static InstanceView pool(Resolution r) {
        WorkloadView view = ((Resolution.Resolved) r).view();
        return view.root().children().stream()
                .filter(c -> c.name().equals("pool"))
                .findFirst()
                .orElseThrow()
                .instances()
                .get(0);
    }
}
