package dev.cartograph.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cartograph.interpreter.Documents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MemberManifestTest {
    /**
     * The Job of ../shared/recorded/batch-job-v1/v1.34.0/running.yaml (a real API server's answer: its generated
     * selector and labels), as the hub holds it with the broker's marks and a kubectl apply annotation added.
     */
    static final String HUB_JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              creationTimestamp: "2026-09-16T11:00:06Z"
              generation: 1
              resourceVersion: "623609"
              uid: 10f48056-f070-4e64-a367-5715492ed20d
              managedFields: [{manager: kubectl, operation: Update}]
              finalizers: [cartograph.dev/placement]
              labels:
                batch.kubernetes.io/controller-uid: 10f48056-f070-4e64-a367-5715492ed20d
                batch.kubernetes.io/job-name: karta-e2e-job-running
                controller-uid: 10f48056-f070-4e64-a367-5715492ed20d
                job-name: karta-e2e-job-running
                cartograph.dev/cluster: gpu-east
                cartograph.dev/cluster-selector: region=us-east
                team: a
              annotations:
                cartograph.dev/phase: Running
                cartograph.dev/priority: "5"
                kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"batch/v1"}'
                note: kept
              name: karta-e2e-job-running
              namespace: test-n88rk
            spec:
              backoffLimit: 0
              completionMode: NonIndexed
              completions: 1
              manualSelector: false
              parallelism: 1
              selector:
                matchLabels:
                  batch.kubernetes.io/controller-uid: 10f48056-f070-4e64-a367-5715492ed20d
              template:
                metadata:
                  labels:
                    batch.kubernetes.io/controller-uid: 10f48056-f070-4e64-a367-5715492ed20d
                    batch.kubernetes.io/job-name: karta-e2e-job-running
                    controller-uid: 10f48056-f070-4e64-a367-5715492ed20d
                    job-name: karta-e2e-job-running
                    app: worker
                spec:
                  containers: [{name: worker, image: "busybox:1.36"}]
                  restartPolicy: Never
            status:
              active: 1
            """;

    static JsonNode yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    @Test
    void aHubJobLosesServerFieldsItsGeneratedSelectorAndTheBrokersOwnMarks() throws Exception {
        JsonNode hub = yaml(HUB_JOB);
        JsonNode member = MemberManifest.of(hub, MemberManifest.FORWARDED);

        assertThat(member.path("metadata").fieldNames())
                .toIterable()
                .containsExactlyInAnyOrder("labels", "annotations", "name", "namespace");
        assertThat(member.has("status")).isFalse();
        assertThat(member.at("/metadata/labels")).isEqualTo(yaml("""
                batch.kubernetes.io/job-name: karta-e2e-job-running
                job-name: karta-e2e-job-running
                cartograph.dev/cluster-selector: region=us-east
                team: a
                """));
        assertThat(member.at("/metadata/annotations")).isEqualTo(yaml("cartograph.dev/priority: \"5\"\nnote: kept\n"));
        assertThat(member.path("spec").has("selector")).isFalse();
        assertThat(member.at("/spec/template/metadata/labels")).isEqualTo(yaml("app: worker\n"));
        assertThat(member.at("/spec/template/spec")).isEqualTo(hub.at("/spec/template/spec"));
        assertThat(member.at("/spec/parallelism").asInt()).isEqualTo(1);
        assertThat(hub).isEqualTo(yaml(HUB_JOB)); // the input is not changed
    }

    @Test
    void applyingItTwiceChangesNothingMore() throws Exception {
        JsonNode once = MemberManifest.of(yaml(HUB_JOB), MemberManifest.FORWARDED);
        assertThat(MemberManifest.of(once, MemberManifest.FORWARDED)).isEqualTo(once);
    }

    @Test
    void aJobWithAManualSelectorKeepsItsSelectorAndTemplateLabels() throws Exception {
        JsonNode hub = yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j, namespace: ml, uid: u-1}
                spec:
                  manualSelector: true
                  selector: {matchLabels: {controller-uid: mine}}
                  template: {metadata: {labels: {controller-uid: mine, job-name: j}}, spec: {containers: [{name: c, image: x}]}}
                """);
        JsonNode member = MemberManifest.of(hub, Set.of());
        assertThat(member.at("/spec/selector")).isEqualTo(hub.at("/spec/selector"));
        assertThat(member.at("/spec/template/metadata/labels")).isEqualTo(hub.at("/spec/template/metadata/labels"));
        assertThat(member.at("/metadata/uid").isMissingNode()).isTrue();
    }

    @Test
    void aSelectorWithTheUsersOwnLabelsKeepsThoseAndLosesOnlyTheGeneratedOne() throws Exception {
        JsonNode member = MemberManifest.of(yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j, namespace: ml}
                spec:
                  selector:
                    matchLabels: {batch.kubernetes.io/controller-uid: u-1, app: w}
                    matchExpressions: [{key: tier, operator: In, values: [gpu]}]
                  template: {metadata: {labels: {app: w, tier: gpu}}, spec: {containers: [{name: c, image: x}]}}
                """), Set.of());
        assertThat(member.at("/spec/selector")).isEqualTo(yaml("""
                matchLabels: {app: w}
                matchExpressions: [{key: tier, operator: In, values: [gpu]}]
                """));
    }

    @Test
    void otherKindsKeepTheirSelectorsAndTheKeepListDecidesWhichOwnMarksStay() throws Exception {
        JsonNode hub = yaml("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: s
                  namespace: ml
                  labels: {cartograph.dev/placement-id: p-1, controller-uid: x}
                  annotations: {cartograph.dev/epoch: "3", cartograph.dev/priority: "1"}
                spec: {selector: {matchLabels: {controller-uid: x}}, template: {metadata: {labels: {controller-uid: x}}}}
                """);
        JsonNode member = MemberManifest.of(hub, Set.of("cartograph.dev/epoch"));
        assertThat(member.at("/metadata/labels")).isEqualTo(yaml("controller-uid: x\n"));
        assertThat(member.at("/metadata/annotations")).isEqualTo(yaml("cartograph.dev/epoch: \"3\"\n"));
        assertThat(member.at("/spec")).isEqualTo(hub.at("/spec"));
    }

    /**
     * The union of the two lists this rule replaced: the agent's (uid, resourceVersion, creationTimestamp, generation,
     * managedFields, ownerReferences, finalizers, deletionTimestamp) and the broker's, which also had selfLink and
     * deletionGracePeriodSeconds: a hub object being deleted carries all of them, and none names anything on a member.
     */
    @Test
    void everyServerSetOrHubLocalMetadataFieldIsRemoved() throws Exception {
        JsonNode member = MemberManifest.of(yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  namespace: team-a
                  uid: 6d1f4c2e-1111-4c3b-9f0a-2b7e5d9c0a11
                  resourceVersion: "42"
                  creationTimestamp: "2026-09-16T11:00:06Z"
                  generation: 3
                  managedFields: [{manager: kubectl, operation: Update}]
                  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: 0a0b0c0d-2222-4c3b-9f0a-2b7e5d9c0a11}]
                  finalizers: [cartograph.dev/placement]
                  deletionTimestamp: "2026-09-16T12:00:00Z"
                  deletionGracePeriodSeconds: 0
                  selfLink: /apis/apps/v1/namespaces/team-a/deployments/web
                  labels: {app: web}
                spec: {replicas: 1}
                """), MemberManifest.FORWARDED);

        assertThat(member.path("metadata").fieldNames())
                .toIterable()
                .containsExactlyInAnyOrder("name", "namespace", "labels");
    }

    @Test
    void somethingThatIsNotAnObjectIsRefused() {
        assertThatThrownBy(() -> MemberManifest.of(JsonNodeFactory.instance.arrayNode(), Set.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ARRAY");
    }
}
