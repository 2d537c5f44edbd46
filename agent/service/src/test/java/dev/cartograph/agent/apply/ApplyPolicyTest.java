package dev.cartograph.agent.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.WorkloadKey;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ApplyPolicyTest {
    static final ApplyPolicy POLICY =
            new ApplyPolicy(Catalog.load().definitions(), Set.of(), ApplyPolicy.SYSTEM_NAMESPACES);
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");
    static final WorkloadKey COPY = new WorkloadKey("gpu-east", "ml", "batch", "Job", "j");

    static JsonNode yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    static final String JOB =
            "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: ml, uid: from-hub, resourceVersion: \"9\"}\n"
                    + "spec: {template: {spec: {containers: [{name: c, image: x}]}}}\nstatus: {active: 1}\n";

    @Test
    void createsMarkedCopiesWithoutServerFields() throws Exception {
        ApplyPolicy.Decision d = POLICY.decide(new Command.Apply("p-1", 3, T, yaml(JOB)), Optional.empty());
        assertThat(d).isInstanceOf(ApplyPolicy.Decision.Create.class);
        JsonNode m = ((ApplyPolicy.Decision.Create) d).manifest();
        assertThat(m.at("/metadata/labels/cartograph.dev~1placement-id").asText())
                .isEqualTo("p-1");
        assertThat(m.at("/metadata/annotations/cartograph.dev~1epoch").asText()).isEqualTo("3");
        assertThat(m.at("/metadata/uid").isMissingNode()).isTrue();
        assertThat(m.has("status")).isFalse();
        assertThat(Ownership.ownedBy(m, "p-1")).isTrue();
    }

    @Test
    void redeliveryUpdatesTheSameObjectAndOlderEpochsAreStale() throws Exception {
        JsonNode existing = Ownership.mark(yaml(JOB), "p-1", 3);
        assertThat(POLICY.decide(new Command.Apply("p-1", 3, T, yaml(JOB)), Optional.of(existing)))
                .isInstanceOf(ApplyPolicy.Decision.Update.class);
        assertThat(POLICY.decide(new Command.Apply("p-1", 2, T, yaml(JOB)), Optional.of(existing)))
                .isEqualTo(new ApplyPolicy.Decision.Stale(3));
        assertThat(POLICY.decide(new Command.Delete("p-1", 2, T, COPY), Optional.of(existing)))
                .isEqualTo(new ApplyPolicy.Decision.Stale(3));
        assertThat(POLICY.decide(new Command.Delete("p-1", 4, T, COPY), Optional.of(existing)))
                .isInstanceOf(ApplyPolicy.Decision.Delete.class);
        assertThat(POLICY.decide(new Command.Delete("p-1", 4, T, COPY), Optional.empty()))
                .isInstanceOf(ApplyPolicy.Decision.NothingToDelete.class);
    }

    @Test
    void refusesWhatIsNotAllowedWithTheReason() throws Exception {
        assertThat(POLICY.decide(
                        new Command.Apply("p", 1, T, yaml(JOB.replace("namespace: ml", "namespace: kube-system"))),
                        Optional.empty()))
                .isEqualTo(new ApplyPolicy.Decision.Reject("namespace kube-system is not allowed"));
        assertThat(POLICY.decide(
                        new Command.Apply(
                                "p", 1, T, yaml("apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ml}\n")),
                        Optional.empty()))
                .isEqualTo(new ApplyPolicy.Decision.Reject(
                        "Secret (v1) is not a catalog workload kind; only those are applied"));
        ApplyPolicy onlyMl = new ApplyPolicy(Catalog.load().definitions(), Set.of("ml"), Set.of());
        assertThat(onlyMl.decide(
                        new Command.Apply("p", 1, T, yaml(JOB.replace("namespace: ml", "namespace: other"))),
                        Optional.empty()))
                .isEqualTo(new ApplyPolicy.Decision.Reject("namespace other is not allowed (allowed: ml)"));
        assertThat(POLICY.decide(
                        new Command.Apply("p", 1, T, yaml(JOB.replace(", namespace: ml", ""))), Optional.empty()))
                .isInstanceOf(ApplyPolicy.Decision.Reject.class);
    }

    @Test
    void aJobWithAnotherServersGeneratedSelectorIsCreatedWithoutItAndWithoutTheBrokersOwnMarks() throws Exception {
        JsonNode hub = yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: j
                  namespace: ml
                  uid: hub-uid
                  labels: {controller-uid: hub-uid, cartograph.dev/cluster: east, cartograph.dev/placement-id: other}
                  annotations: {cartograph.dev/priority: "3", cartograph.dev/reason: placed}
                spec:
                  selector: {matchLabels: {batch.kubernetes.io/controller-uid: hub-uid}}
                  template:
                    metadata: {labels: {batch.kubernetes.io/controller-uid: hub-uid, controller-uid: hub-uid, job-name: j, app: w}}
                    spec: {containers: [{name: c, image: x}]}
                """);
        JsonNode m = ((ApplyPolicy.Decision.Create)
                        POLICY.decide(new Command.Apply("p-1", 3, T, hub), Optional.empty()))
                .manifest();

        assertThat(m.path("spec").has("selector")).isFalse();
        assertThat(m.at("/spec/template/metadata/labels")).isEqualTo(yaml("app: w\n"));
        assertThat(m.at("/metadata/labels"))
                .isEqualTo(yaml("cartograph.dev/placement-id: p-1\napp.kubernetes.io/managed-by: cartograph-agent\n"));
        assertThat(m.at("/metadata/annotations"))
                .isEqualTo(yaml("cartograph.dev/priority: \"3\"\ncartograph.dev/epoch: \"3\"\n"));
    }

    @Test
    void anObjectFoundUnderTheNameIsComparedByPlacementAndEpoch() throws Exception {
        JsonNode marked = Ownership.mark(yaml(JOB), "p-1", 3);
        assertThat(Ownership.compare(Ownership.mark(yaml(JOB), "p-1", 3), marked))
                .isEqualTo(Ownership.Found.SAME_EPOCH);
        assertThat(Ownership.compare(Ownership.mark(yaml(JOB), "p-1", 2), marked))
                .isEqualTo(Ownership.Found.OLDER_EPOCH);
        assertThat(Ownership.compare(Ownership.mark(yaml(JOB), "p-1", 4), marked))
                .isEqualTo(Ownership.Found.NEWER_EPOCH);
        assertThat(Ownership.compare(Ownership.mark(yaml(JOB), "p-2", 3), marked))
                .isEqualTo(Ownership.Found.NOT_OURS);
        assertThat(Ownership.compare(yaml(JOB), marked)).isEqualTo(Ownership.Found.NOT_OURS);
    }

    @Test
    void aManifestWhosePodsNameTheirNodeOrShareTheHostsNetworkIsRejected() throws Exception {
        JsonNode pinned = yaml(
                "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: ml}\n"
                        + "spec: {template: {spec: {nodeName: gpu-1, hostNetwork: true, containers: [{name: c, image: x}]}}}\n");
        ApplyPolicy.Decision d = POLICY.decide(new Command.Apply("p-1", 1, T, pinned), Optional.empty());
        assertThat(d)
                .isEqualTo(new ApplyPolicy.Decision.Reject(
                        "pod security level baseline of namespace ml refuses it (2 violations): spec.template.spec.nodeName:"
                                + " names node 'gpu-1' itself, which would bypass placement; use a nodeSelector or node"
                                + " affinity instead; spec.template.spec.hostNetwork: the pod shares the node's network"
                                + " namespace (hostNetwork: true); nothing was written"));
        ApplyPolicy privileged = new ApplyPolicy(
                Catalog.load().definitions(),
                Set.of(),
                ApplyPolicy.SYSTEM_NAMESPACES,
                new dev.cartograph.interpreter.podsecurity.PodSecurityPolicy(
                        dev.cartograph.interpreter.podsecurity.Level.RESTRICTED, Set.of("ml")));
        // privileged lifts the standards, never the nodeName rule
        assertThat(((ApplyPolicy.Decision.Reject)
                                privileged.decide(new Command.Apply("p-1", 1, T, pinned), Optional.empty()))
                        .reason())
                .startsWith(
                        "pod security level privileged of namespace ml refuses it (1 violation): spec.template.spec.nodeName");
    }
}
