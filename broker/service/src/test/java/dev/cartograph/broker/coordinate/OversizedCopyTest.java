package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 33, finding 4: a gang whose apply (the object with the ConfigMaps it mounts) is larger than Kafka takes as one
 * record. It used to stay Placed for good, its GPUs reserved, its apply resent every few seconds, with no reason on it.
 * Now it fails with the bytes and the limit before anything of it is reserved or durable; a change that would make a
 * running copy too large is refused and the copy keeps its spec. The outbox here takes commands of up to 64 KiB; the
 * ConfigMap {@code weights} holds 100 KiB. One cluster of one free 8-GPU node.
 */
@Timeout(60)
class OversizedCopyTest extends CoordinatorHarness {

    /** {@code job} mounting ConfigMap {@code weights}, which holds 100 KiB of data on the hub. */
    private JsonNode withWeights(JsonNode job) {
        JsonNode out = withConfig(job, "weights");
        ObjectNode weights = (ObjectNode) dependencies.get("ml/ConfigMap/weights");
        weights.with("data").put("blob", "x".repeat(100 * 1024));
        return out;
    }

    private PlacementRecord record(String uid) {
        return coordinator.view().placements().get(uid);
    }

    @Test
    void aGangTooLargeToSendFailsWithTheBytesAndHoldsNoGpus() {
        maxCommandBytes = 64 * 1024;
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        step(new Input.HubChanged(withWeights(job("big", "uid-big", T0, 8, "", ""))));
        assertThat(record("uid-big").state()).isEqualTo(State.FAILED);
        assertThat(record("uid-big").reason())
                .startsWith("its copy cannot be sent to east: as a command it is 10")
                .endsWith(" bytes; at most 65536");
        assertThat(commands).isEmpty();
        assertThat(hubWrites).anySatisfy(w -> assertThat(w).startsWith("event big Invalid: its copy cannot be sent"));
        // its 8 GPUs were never reserved: a gang asking for the whole node fits
        step(new Input.HubChanged(job("next", "uid-next", T0.plusSeconds(1), 8, "", "")));
        assertThat(commands).containsExactly("apply uid-next@east#1");
    }

    @Test
    void aChangeThatWouldMakeARunningCopyTooLargeIsRefusedAndTheCopyKeepsItsSpec() {
        maxCommandBytes = 64 * 1024;
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)));
        step(new Input.HubChanged(job("j", "uid-j", T0, 8, "", "")));
        step(new Input.Result(new CommandResult("east", "uid-j", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        step(new Input.HubChanged(withWeights(job("j", "uid-j", T0, 8, "", ""))));
        assertThat(commands).containsExactly("apply uid-j@east#1");
        assertThat(record("uid-j").state()).isEqualTo(State.APPLIED);
        assertThat(record("uid-j").epoch()).isEqualTo(1);
        assertThat(hubWrites)
                .anySatisfy(w -> assertThat(w)
                        .startsWith("event j NotForwarded: the change is not forwarded; the running copy keeps its"
                                + " spec: its copy cannot be sent to east: as a command it is "));
    }
}
