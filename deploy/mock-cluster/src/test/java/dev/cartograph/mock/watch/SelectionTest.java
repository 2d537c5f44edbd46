package dev.cartograph.mock.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.mock.selector.FieldSelector;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which event a watch sees for a change, as a real API server decides: by the selection before and after. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SelectionTest {
    private static final AttributeSet PODS_IN_ML =
            new AttributeSet(new Attribute("plural", "pods"), new Attribute("namespace", "ml"));
    private static final Selection NLP_PODS =
            new Selection(PODS_IN_ML.add(new Attribute("labels:team", "nlp")), new FieldSelector(List.of()));

    @Test
    void anObjectEnteringStayingInAndLeavingTheSelectionIsAddedModifiedDeleted() {
        Stored cv = pod("web", "cv", 5);
        Stored nlp = pod("web", "nlp", 6);
        Stored nlpAgain = pod("web", "nlp", 7);
        Stored cvAgain = pod("web", "cv", 8);

        assertThat(NLP_PODS.eventFor(Change.created(5, cv))).isEmpty();
        assertThat(NLP_PODS.eventFor(Change.updated(6, cv, nlp)).orElseThrow().type())
                .isEqualTo(WatchEvent.Type.ADDED);
        assertThat(NLP_PODS.eventFor(Change.updated(7, nlp, nlpAgain))
                        .orElseThrow()
                        .type())
                .isEqualTo(WatchEvent.Type.MODIFIED);
        WatchEvent left =
                NLP_PODS.eventFor(Change.updated(8, nlpAgain, cvAgain)).orElseThrow();
        assertThat(left.type()).isEqualTo(WatchEvent.Type.DELETED);
        // the last state the watch matched, at the resourceVersion of the change that took it out
        assertThat(left.object().path("metadata").path("labels").path("team").asText())
                .isEqualTo("nlp");
        assertThat(left.object().path("metadata").path("resourceVersion").asText())
                .isEqualTo("8");
    }

    @Test
    void aChangeMayConcernASelectionOnlyWhenItsObjectsKeyMatchesBeforeOrAfter() {
        assertThat(NLP_PODS.mayConcern(Change.created(5, pod("web", "cv", 5)))).isFalse();
        assertThat(NLP_PODS.mayConcern(Change.updated(6, pod("web", "cv", 5), pod("web", "nlp", 6))))
                .isTrue();
        assertThat(NLP_PODS.mayConcern(Change.deleted(7, pod("web", "nlp", 6)))).isTrue();
    }

    @Test
    void aDeleteCarriesTheDeletionsResourceVersion() {
        WatchEvent deleted =
                NLP_PODS.eventFor(Change.deleted(12, pod("web", "nlp", 9))).orElseThrow();
        assertThat(deleted.type()).isEqualTo(WatchEvent.Type.DELETED);
        assertThat(deleted.object().path("metadata").path("resourceVersion").asText())
                .isEqualTo("12");
    }

    @Test
    void aFieldSelectorOnAnyFieldNarrowsTheSelection() {
        Selection onNode = new Selection(
                PODS_IN_ML, ((FieldSelector.Valid) FieldSelector.parse("spec.nodeName=gpu-east-0")).selector());
        Stored elsewhere = new Stored(
                key("web", "nlp"), "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"nodeName\":\"gpu-west-1\"}}");
        Stored here = new Stored(
                key("web", "nlp"), "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"nodeName\":\"gpu-east-0\"}}");

        assertThat(onNode.eventFor(Change.created(1, elsewhere))).isEmpty();
        assertThat(onNode.eventFor(Change.updated(2, elsewhere, here))
                        .orElseThrow()
                        .type())
                .isEqualTo(WatchEvent.Type.ADDED);
    }

    @Test
    void anotherNamespaceOrKindIsNeverSeen() {
        Stored other = new Stored(
                new AttributeSet(
                        new Attribute("plural", "pods"),
                        new Attribute("namespace", "prod"),
                        new Attribute("labels:team", "nlp")),
                "{\"metadata\":{\"name\":\"web\"}}");
        Stored job = new Stored(
                new AttributeSet(
                        new Attribute("plural", "jobs"),
                        new Attribute("namespace", "ml"),
                        new Attribute("labels:team", "nlp")),
                "{\"metadata\":{\"name\":\"web\"}}");
        assertThat(NLP_PODS.eventFor(Change.created(1, other))).isEmpty();
        assertThat(NLP_PODS.eventFor(Change.created(2, job))).isEmpty();
    }

    private static Stored pod(String name, String team, long resourceVersion) {
        return new Stored(
                key(name, team),
                "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"team\":\"" + team + "\"},\"resourceVersion\":\""
                        + resourceVersion + "\"}}");
    }

    private static AttributeSet key(String name, String team) {
        return PODS_IN_ML.add(new Attribute("name", name), new Attribute("labels:team", team));
    }
}
