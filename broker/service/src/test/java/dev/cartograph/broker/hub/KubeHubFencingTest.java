package dev.cartograph.broker.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.mock.fault.ActiveFault;
import dev.cartograph.mock.fault.Fault;
import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.fault.RequestMatch;
import dev.cartograph.mock.server.MockApiServer;
import io.fabric8.kubernetes.api.model.Event;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 34: a deposed leader's queued hub writes are dropped, not made after a newer leader's. */
class KubeHubFencingTest {
    private final MockApiServer server = MockApiServer.start();
    private final KubeHub hub = new KubeHub(server.client(), null, Clock.systemUTC());
    private final AtomicLong term = new AtomicLong(3);
    private final JsonNode job = new ObjectMapper()
            .createObjectNode()
            .put("apiVersion", "batch/v1")
            .put("kind", "Job")
            .set(
                    "metadata",
                    new ObjectMapper().createObjectNode().put("namespace", "ml").put("name", "train"));

    @AfterEach
    void close() {
        hub.close();
        server.close();
    }

    private java.util.List<String> reasons() {
        return server.client().v1().events().inNamespace("ml").list().getItems().stream()
                .map(Event::getReason)
                .sorted()
                .toList();
    }

    /** Until the slow first write has reached the server (it is being answered, 800 ms late). */
    private static void awaitUnderWay(ActiveFault slow) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (slow.fired() == 0) {
            assertThat(System.nanoTime())
                    .as("the first write reaches the server")
                    .isLessThan(end);
            Thread.sleep(10);
        }
    }

    /**
     * Fences the hub by {@link #term}, queues the Event "First" with its create answered 800 ms late, then the Events
     * {@code behind} it, and returns once "First" has reached the server: the others are still queued.
     */
    private void slowFirstWriteThen(String... behind) throws InterruptedException {
        hub.fenceBy(term::get);
        ActiveFault slow = server.faults()
                .add(FaultRule.on(RequestMatch.verbs("create"), Fault.delay(Duration.ofMillis(800)))
                        .forNext(1));
        hub.event(job, "Normal", "First", "made: it was under way when the term changed");
        for (String reason : behind) {
            hub.event(job, "Normal", reason, "queued behind it");
        }
        awaitUnderWay(slow);
    }

    @Test
    void writesQueuedInATermTheBrokerNoLongerActsInAreDropped() throws Exception {
        slowFirstWriteThen("Second", "Third");
        term.set(-1); // deposed
        hub.drain(Duration.ofSeconds(5));
        assertThat(reasons()).containsExactly("First");
        assertThat(hub.deposedWrites()).isEqualTo(2);

        term.set(5); // this broker leads again, in a newer term: what it queues now is made
        hub.event(job, "Normal", "Fourth", "in term 5");
        hub.drain(Duration.ofSeconds(5));
        assertThat(reasons()).containsExactly("First", "Fourth");
    }

    @Test
    void aWriteQueuedInAnEarlierTermIsDroppedEvenWhenTheBrokerActsAgain() throws Exception {
        slowFirstWriteThen("Second");
        term.set(4); // lost the Lease and took it again: term 3's writes are another leader's past
        hub.drain(Duration.ofSeconds(5));
        assertThat(reasons()).containsExactly("First");
    }

    @Test
    void withoutLeadershipToCheckEveryWriteIsMade() throws Exception {
        hub.event(job, "Normal", "First", "no fence");
        hub.drain(Duration.ofSeconds(5));
        assertThat(reasons()).containsExactly("First");
    }
}
