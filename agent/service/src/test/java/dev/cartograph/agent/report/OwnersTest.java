package dev.cartograph.agent.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class OwnersTest {
    static List<JsonNode> yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    static List<String> names(List<JsonNode> objects) {
        return objects.stream()
                .map(o -> o.path("metadata").path("name").asText())
                .toList();
    }

    @Test
    void podsAreFoundThroughTheControllersBetween() throws Exception {
        List<JsonNode> workloads = yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, uid: d1}
                ---
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata:
                  name: web-5d9
                  uid: rs1
                  ownerReferences: [{kind: Deployment, name: web, uid: d1, controller: true}]
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: train, uid: j1}
                """);
        List<JsonNode> pods = yaml("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web-5d9-a
                  uid: p1
                  ownerReferences: [{kind: ReplicaSet, name: web-5d9, uid: rs1, controller: true}]
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: train-0
                  uid: p2
                  ownerReferences: [{kind: Job, name: train, uid: j1}]
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: shared
                  uid: p3
                  ownerReferences: [{kind: Job, name: train, uid: j1}, {kind: Deployment, name: web, uid: d1}]
                """);
        Owners owners = Owners.of(workloads, pods);

        // web-5d9-a: pod → ReplicaSet → Deployment, two hops
        assertThat(names(owners.podsOf(workloads.get(0)))).containsExactly("web-5d9-a");
        assertThat(names(owners.podsOf(workloads.get(1)))).containsExactly("web-5d9-a");
        // train-0: its only owner counts though not marked controller; "shared" has two owners, neither the
        // controller, so it belongs to neither
        assertThat(names(owners.podsOf(workloads.get(2)))).containsExactly("train-0");
    }
}
