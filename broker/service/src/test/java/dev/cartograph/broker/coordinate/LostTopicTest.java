package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.PlacementRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 33: a placements topic deleted, or deleted and created again, under a running broker is an alarm, not a fresh
 * start. Before, the leader carried on as if its records were durable (none was in the new topic, so the next leader
 * had to adopt every running gang from its copy, and lost the waiting ones' state); now it writes every record it holds
 * again, at once if it acts, else when it comes to act, and counts the loss for health and metrics.
 */
@Timeout(60)
class LostTopicTest extends CoordinatorHarness {

    @Test
    void theLeaderWritesEveryRecordItHoldsAgainAndSendsNothingNew() {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        step(
                new Input.HubChanged(job("a", "uid-a", T0, 8, "", "")),
                new Input.HubChanged(job("b", "uid-b", T0, 8, "", "")));
        assertThat(commands).containsExactlyInAnyOrder("apply uid-a@east#1", "apply uid-b@east#1");
        records.clear();
        commands.clear();

        step(new Input.PlacementsLost("the placements topic t.placements was deleted and created again"));

        assertThat(records)
                .extracting(
                        PlacementRecord::uid,
                        PlacementRecord::epoch,
                        r -> r.cluster().orElse(""))
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("uid-a", 1L, "east"),
                        org.assertj.core.groups.Tuple.tuple("uid-b", 1L, "east"));
        assertThat(commands).as("nothing is placed or sent again").isEmpty();
        assertThat(coordinator.view().placementsLost()).isEqualTo(1);
    }

    @Test
    void aStandbyWritesWhatItHoldsOnceItLeads() {
        CoordinatorHarness b = new CoordinatorHarness(settings("leases"));
        b.coordinator.leading(true);
        b.step(new Input.Leading(true), new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        b.step(new Input.HubChanged(job("a", "uid-a", T0, 8, "", "")));
        assertThat(b.commands).containsExactly("apply uid-a@east#1");
        b.coordinator.leading(false);
        b.step(new Input.Leading(false));
        b.records.clear();

        b.step(new Input.PlacementsLost("the placements topic t.placements was gone; it was created again empty"));
        assertThat(b.records).as("a standby writes nothing").isEmpty();
        assertThat(b.coordinator.view().placementsLost()).isEqualTo(1);

        b.coordinator.leading(true);
        b.step(new Input.Leading(true), new Input.CaughtUp());
        assertThat(b.records).extracting(PlacementRecord::uid).contains("uid-a");
        assertThat(b.commands).as("nothing sent again").containsExactly("apply uid-a@east#1");
    }
}
