package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The coordinator tells its observer how each placement attempt ended, with the mark the attempt started at. */
@Timeout(60)
class DecisionObserverTest extends CoordinatorHarness {

    @Test
    void eachAttemptIsReportedOnceWithItsOutcome() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 8))); // one node, its 8 GPUs in use
        step(new Input.HubChanged(job("a", "uid-a", T0, 8, "", ""))); // fits nowhere now: waits
        assertThat(decisions).containsExactly("waiting after 1");

        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("east", 2, now, 0))); // the GPUs are free again: a is tried again, and placed
        assertThat(decisions).containsExactly("waiting after 1", "placed after 2");

        step(new Input.HubChanged(job("b", "uid-b", T0.plusSeconds(1), 8, "", ""))); // a holds the node: b waits
        assertThat(decisions).containsExactly("waiting after 1", "placed after 2", "waiting after 3");
    }

    @Test
    void aGangThatFitsNoNodeWaitsAndOneThatCannotBeInterpretedFails() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        step(
                new Input.HubChanged(job("nine", "uid-9", T0, 9, "", "")), // 9 GPUs in one pod: no 8-GPU node fits
                new Input.HubChanged(yaml("""
                        apiVersion: kubeflow.org/v1
                        kind: PyTorchJob
                        metadata: {name: bare, namespace: ml, uid: uid-bare}
                        """))); // no spec: failed with the reason
        assertThat(decisions).containsExactly("waiting after 1", "failed after 2");
    }
}
