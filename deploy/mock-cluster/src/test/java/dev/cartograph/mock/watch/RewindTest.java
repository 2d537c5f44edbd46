package dev.cartograph.mock.watch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.mock.selector.FieldSelector;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A list some changes ago, worked out by hand from the changes undone. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RewindTest {
    private static final AttributeSet CONFIGMAPS_IN_ML =
            new AttributeSet(new Attribute("plural", "configmaps"), new Attribute("namespace", "ml"));
    private static final Selection ALL_IN_ML = new Selection(CONFIGMAPS_IN_ML, new FieldSelector(List.of()));

    // rv 1 create a; rv 2 create b; rv 3 update a (v2); rv 4 delete b; rv 5 create c; rv 6 create x in another
    // namespace
    private final Stored a1 = cm("ml", "a", 1, "v1");
    private final Stored b2 = cm("ml", "b", 2, "v1");
    private final Stored a3 = cm("ml", "a", 3, "v2");
    private final Stored c5 = cm("ml", "c", 5, "v1");
    private final Stored x6 = cm("other", "x", 6, "v1");
    private final ChangeLog.History history = new ChangeLog.History(
            0,
            List.of(
                    Change.created(1, a1),
                    Change.created(2, b2),
                    Change.updated(3, a1, a3),
                    Change.deleted(4, b2),
                    Change.created(5, c5),
                    Change.created(6, x6)));
    private final List<JsonNode> now = List.of(a3.object(), c5.object());

    @Test
    void undoingTheNewestChangesPutsBackWhatWasDeletedOrChangedAndTakesOutWhatWasCreated() {
        // undo 6 (another namespace: nothing), 5 (c goes), 4 (b comes back): the list as of rv 3
        Rewind.Rewound three = Rewind.of(now, ALL_IN_ML, history, 3);

        assertThat(three.resourceVersion()).isEqualTo(3);
        assertThat(three.items())
                .extracting(i -> i.path("metadata").path("name").asText() + "="
                        + i.path("data").path("v").asText())
                .containsExactlyInAnyOrder("a=v2", "b=v1");

        // and 3 as well: a as it was first
        Rewind.Rewound two = Rewind.of(now, ALL_IN_ML, history, 4);
        assertThat(two.resourceVersion()).isEqualTo(2);
        assertThat(two.items())
                .extracting(i -> i.path("metadata").path("name").asText() + "="
                        + i.path("data").path("v").asText())
                .containsExactlyInAnyOrder("a=v1", "b=v1");
    }

    @Test
    void askingFurtherBackThanRetainedUndoesEverythingRetained() {
        Rewind.Rewound beginning = Rewind.of(now, ALL_IN_ML, new ChangeLog.History(0, history.changes()), 50);

        assertThat(beginning.items()).isEmpty();
        assertThat(beginning.resourceVersion()).isZero();
    }

    private static Stored cm(String namespace, String name, long resourceVersion, String value) {
        return new Stored(
                new AttributeSet(
                        new Attribute("plural", "configmaps"),
                        new Attribute("namespace", namespace),
                        new Attribute("name", name)),
                "{\"kind\":\"ConfigMap\",\"metadata\":{\"namespace\":\"" + namespace + "\",\"name\":\"" + name
                        + "\",\"resourceVersion\":\"" + resourceVersion + "\"},\"data\":{\"v\":\"" + value + "\"}}");
    }
}
