package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.api.Views;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.interpreter.podsecurity.Level;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pod security before placing: a workload whose pod templates break its namespace's level is failed
 * with every violation on the hub object (reason annotation, a PodSecurity Event) and in the broker's
 * view, and no command for it ever reaches a member; everything else in the same run is placed.
 */
@Timeout(60)
class PodSecurityCoordinatorTest {

    static final String ESCAPE = """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata: {name: escape, namespace: ml, uid: uid-escape, creationTimestamp: "2026-12-02T11:00:00Z", labels: {cartograph.dev/federate: "true"}}
            spec:
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  template: {spec: {containers: [{name: pytorch, image: x}]}}
                Worker:
                  replicas: 2
                  template:
                    spec:
                      containers: [{name: pytorch, image: x%s}]
                      %s
            """;

    static final JsonNode HOST_JOBSET = CoordinatorHarness.yaml("""
            apiVersion: jobset.x-k8s.io/v1alpha2
            kind: JobSet
            metadata: {name: sniff, namespace: ml, uid: uid-sniff, creationTimestamp: "2026-12-02T11:00:00Z", labels: {cartograph.dev/federate: "true"}}
            spec:
              replicatedJobs:
                - name: workers
                  replicas: 1
                  template:
                    spec:
                      parallelism: 2
                      template:
                        spec:
                          hostNetwork: true
                          hostPID: true
                          containers: [{name: w, image: x}]
            """);

    static JsonNode escape(boolean unsafe) {
        return CoordinatorHarness.yaml(ESCAPE.formatted(
                unsafe ? ", securityContext: {privileged: true}" : "",
                unsafe ? "volumes: [{name: host, hostPath: {path: /}}]" : "volumes: [{name: scratch, emptyDir: {}}]"));
    }

    static BrokerSettings settings(PodSecurityPolicy podSecurity) {
        return new BrokerSettings(
                        "test",
                        "t",
                        Map.of(),
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(60),
                        "cartograph.dev/federate=true",
                        Planner.Policy.BIN_PACK,
                        false,
                        "",
                        "",
                        Duration.ofSeconds(1))
                .withPodSecurity(podSecurity);
    }

    static CoordinatorHarness started(PodSecurityPolicy podSecurity) {
        CoordinatorHarness h = new CoordinatorHarness(settings(podSecurity));
        h.step(new Input.CaughtUp(), new Input.Cluster(CoordinatorHarness.cluster("east", 1, h.now, 0, 0)));
        return h;
    }

    @Test
    void unsafeGangsAreNeverForwardedAndSayWhyWhileAnOrdinaryGangIsPlaced() {
        CoordinatorHarness h = started(PodSecurityPolicy.DEFAULT);
        h.step(
                new Input.HubChanged(escape(true)),
                new Input.HubChanged(HOST_JOBSET),
                new Input.HubChanged(CoordinatorHarness.job("ok", "uid-ok", CoordinatorHarness.T0, 1, "", "")));

        assertThat(h.commands).containsExactly("apply uid-ok@east#1");
        assertThat(h.sent).allSatisfy(c -> assertThat(c.placementId()).isEqualTo("uid-ok"));

        // by hand from ESCAPE: the Worker template's one container is privileged, its one volume is hostPath /
        String escapeReason = "pod security level baseline of namespace ml refuses it (2 violations): "
                + "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].securityContext.privileged: container"
                + " 'pytorch' runs privileged, with every device and capability of the node; "
                + "spec.pytorchReplicaSpecs.Worker.template.spec.volumes[0].hostPath: volume 'host' mounts the node's"
                + " path / (hostPath volumes are not allowed). Change the pod templates to comply; nothing was sent"
                + " to any cluster";
        PlacementRecord escape = h.coordinator.view().placements().get("uid-escape");
        assertThat(escape.state()).isEqualTo(PlacementRecord.State.FAILED);
        assertThat(escape.cluster()).isEmpty();
        assertThat(escape.reason()).isEqualTo(escapeReason);
        assertThat(h.hubWrites)
                .contains(
                        "event escape PodSecurity: " + escapeReason,
                        "mark escape {cartograph.dev/cluster=, cartograph.dev/phase=Failed} reason=" + escapeReason);

        // by hand from HOST_JOBSET: its one pod template shares the node's network and process namespaces
        PlacementRecord sniff = h.coordinator.view().placements().get("uid-sniff");
        assertThat(sniff.state()).isEqualTo(PlacementRecord.State.FAILED);
        assertThat(sniff.reason())
                .startsWith("pod security level baseline of namespace ml refuses it (2 violations): ")
                .contains(
                        "spec.replicatedJobs[0].template.spec.template.spec.hostNetwork: the pod shares the node's"
                                + " network namespace (hostNetwork: true)",
                        "spec.replicatedJobs[0].template.spec.template.spec.hostPID: the pod shares the node's"
                                + " process (PID) namespace (hostPID: true)");
        assertThat(h.hubWrites).anySatisfy(w -> assertThat(w).startsWith("event sniff PodSecurity: pod security"));

        // the REST view shows it as the broker sees it
        JsonNode workloads = Views.workloads(h.coordinator.view(), uid -> true).path("workloads");
        assertThat(workloads.findValues("name").stream().map(JsonNode::asText))
                .containsExactlyInAnyOrder("escape", "ok", "sniff");
        for (JsonNode w : workloads) {
            if (w.path("name").asText().equals("escape")) {
                assertThat(w.path("state").asText()).isEqualTo("FAILED");
                assertThat(w.path("reason").asText()).isEqualTo(escapeReason);
            }
        }

        // the queue and the capacity are as if the unsafe ones had never come: time passes, nothing more is sent
        h.now = h.now.plusSeconds(5);
        h.step(new Input.Cluster(CoordinatorHarness.cluster("east", 2, h.now, 0, 0)), new Input.Tick());
        assertThat(h.commands).containsExactly("apply uid-ok@east#1");
    }

    @Test
    void aRefusedWorkloadFixedByTheUserIsPlaced() {
        CoordinatorHarness h = started(PodSecurityPolicy.DEFAULT);
        h.step(new Input.HubChanged(escape(true)));
        assertThat(h.commands).isEmpty();

        h.step(new Input.HubChanged(escape(false)));
        assertThat(h.commands).containsExactly("apply uid-escape@east#2"); // the next epoch after the failure
        assertThat(h.coordinator.view().placements().get("uid-escape").state()).isEqualTo(PlacementRecord.State.PLACED);
        assertThat(h.hubWrites).anySatisfy(w -> assertThat(w).startsWith("event escape Placed: placed on east"));
    }

    @Test
    void aNamespaceTheOperatorListedAsPrivilegedLetsItThrough() {
        CoordinatorHarness h = started(new PodSecurityPolicy(Level.BASELINE, Set.of("ml")));
        h.step(new Input.HubChanged(escape(true)), new Input.HubChanged(HOST_JOBSET));
        assertThat(h.commands).containsExactlyInAnyOrder("apply uid-escape@east#1", "apply uid-sniff@east#1");
    }

    @Test
    void restrictedEverywhereRefusesAnOrdinaryContainerToo() {
        CoordinatorHarness h = started(new PodSecurityPolicy(Level.RESTRICTED, Set.of()));
        h.step(new Input.HubChanged(CoordinatorHarness.job("ok", "uid-ok", CoordinatorHarness.T0, 1, "", "")));
        assertThat(h.commands).isEmpty();
        // by hand: the Job's one container sets none of the four things restricted asks for
        assertThat(h.coordinator.view().placements().get("uid-ok").reason())
                .startsWith("pod security level restricted of namespace ml refuses it (4 violations): "
                        + "spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation: ");
    }

    @Test
    void aPlacedGangChangedToBreakPodSecurityKeepsItsRunningSpec() {
        CoordinatorHarness h = started(PodSecurityPolicy.DEFAULT);
        h.step(new Input.HubChanged(escape(false)));
        assertThat(h.commands).containsExactly("apply uid-escape@east#1");

        h.step(new Input.HubChanged(escape(true)));
        assertThat(h.commands).containsExactly("apply uid-escape@east#1");
        assertThat(h.hubWrites)
                .anySatisfy(w -> assertThat(w)
                        .startsWith("event escape PodSecurity: the change is not forwarded; the running copy keeps its"
                                + " spec: pod security level baseline of namespace ml refuses it (2 violations)"));
        assertThat(h.coordinator.view().placements().get("uid-escape").state()).isEqualTo(PlacementRecord.State.PLACED);
    }

    @Test
    void aPlacementRecordedUnderAnOlderPolicyIsNotSentAgainByABrokerThatRefusesIt() {
        CoordinatorHarness before = started(new PodSecurityPolicy(Level.BASELINE, Set.of("ml")));
        before.step(new Input.HubChanged(escape(true)));
        assertThat(before.commands).containsExactly("apply uid-escape@east#1");
        PlacementRecord placed = before.records.get(before.records.size() - 1);
        assertThat(placed.state()).isEqualTo(PlacementRecord.State.PLACED); // the agent never answered

        CoordinatorHarness restarted = new CoordinatorHarness(settings(PodSecurityPolicy.DEFAULT));
        restarted.step(
                new Input.Placement(placed.uid(), java.util.Optional.of(placed)),
                new Input.CaughtUp(),
                new Input.Cluster(CoordinatorHarness.cluster("east", 1, restarted.now, 0, 0)),
                new Input.HubChanged(escape(true)));
        restarted.now = restarted.now.plusSeconds(120); // past the heartbeat timeout: unanswered applies are resent
        restarted.step(new Input.Cluster(CoordinatorHarness.cluster("east", 2, restarted.now, 0, 0)), new Input.Tick());
        assertThat(restarted.commands).isEmpty();
        assertThat(restarted.hubWrites)
                .anySatisfy(w -> assertThat(w)
                        .startsWith("event escape PodSecurity: not sent to east: pod security level baseline of"
                                + " namespace ml refuses it (2 violations)"));
    }
}
