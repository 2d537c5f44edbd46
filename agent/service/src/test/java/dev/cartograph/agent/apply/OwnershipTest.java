package dev.cartograph.agent.apply;

import static dev.cartograph.agent.apply.ApplyPolicyTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OwnershipTest {
    static final String JOB = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: ml}\n"
            + "spec: {template: {spec: {containers: [{name: c, image: x}]}}}\n";

    @Test
    void aMarkedTopLevelObjectIsTheCopyOfItsPlacement() throws Exception {
        JsonNode copy = Ownership.mark(yaml(JOB), "p-1", 2);
        assertThat(Ownership.placementId(copy)).contains("p-1");
        assertThat(Ownership.ownedBy(copy, "p-1")).isTrue();
        assertThat(Ownership.ownedBy(copy, "p-2")).isFalse();
    }

    @Test
    void anObjectAControllerOwnsIsNeverACopyEvenWithCopiedLabelsAndAnnotations() throws Exception {
        // a Pod (or ReplicaSet, or a JobSet's Job) whose template copied every mark from the copy's metadata
        ObjectNode pod = (ObjectNode) Ownership.mark(yaml(JOB), "p-1", 2);
        pod.put("kind", "Pod").put("apiVersion", "v1");
        ((ObjectNode) pod.get("metadata"))
                .putArray("ownerReferences")
                .addObject()
                .put("apiVersion", "batch/v1")
                .put("kind", "Job")
                .put("name", "j")
                .put("uid", "u-1")
                .put("controller", true);
        assertThat(Ownership.placementId(pod)).isEmpty();
        assertThat(Ownership.ownedBy(pod, "p-1")).isFalse();
    }

    @Test
    void anObjectWithOnlyThePlacementLabelIsNotACopy() throws Exception {
        ObjectNode labelled = (ObjectNode) yaml(JOB);
        ((ObjectNode) labelled.get("metadata")).putObject("labels").put("cartograph.dev/placement-id", "p-1");
        assertThat(Ownership.placementId(labelled)).isEmpty();
        ObjectNode noEpoch = (ObjectNode) Ownership.mark(yaml(JOB), "p-1", 2);
        ((ObjectNode) noEpoch.get("metadata")).remove("annotations");
        assertThat(Ownership.placementId(noEpoch)).isEmpty();
    }
}
