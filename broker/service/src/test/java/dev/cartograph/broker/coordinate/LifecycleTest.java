package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.dependency.Dependency;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A gang's life after it is placed (issue 15): what its pods need from the hub goes with it and follows the hub's
 * changes; a cluster that refuses it sends it to the next; suspend releases what it holds and resume places it again.
 */
@Timeout(60)
class LifecycleTest extends CoordinatorHarness {

    /** A federated Job, one pod of 8 GPUs, that mounts ConfigMap {@code settings} and reads Secret {@code hf}. */
    static JsonNode train(String suspend, String optionalFlags) {
        return yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: train, namespace: ml, uid: uid-t, creationTimestamp: "2026-12-02T11:00:00Z", labels: {cartograph.dev/federate: "true"}}
                spec:
                  %s
                  template:
                    spec:
                      volumes: [{name: cfg, configMap: {name: settings}}]
                      containers:
                        - name: c
                          image: x
                          resources: {requests: {nvidia.com/gpu: "8"}}
                          env:
                            - {name: HF_TOKEN, valueFrom: {secretKeyRef: {name: hf, key: token}}}
                            %s
                """.formatted(suspend, optionalFlags));
    }

    void hubHas(Dependency.Kind kind, String name, String data) {
        dependencies.put("ml/" + kind.kind() + "/" + name, yaml("""
                        apiVersion: v1
                        kind: %s
                        metadata: {name: %s, namespace: ml, uid: u-%s, resourceVersion: "9"}
                        data: {%s}
                        """.formatted(kind.kind(), name, name, data)));
    }

    List<Command.Apply> applies() {
        return sent.stream()
                .filter(Command.Apply.class::isInstance)
                .map(Command.Apply.class::cast)
                .toList();
    }

    static List<String> named(Command.Apply apply) {
        return apply.dependencies().stream()
                .map(d -> d.path("kind").asText() + " "
                        + d.path("metadata").path("name").asText())
                .toList();
    }

    @Test
    void aGangWaitsForASecretTheHubLacksThenGoesWithItsConfigMapAndSecretAndFollowsTheirChanges() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)), new Input.HubChanged(train("", "")));
        assertThat(commands).isEmpty();
        PlacementRecord waiting = coordinator.view().placements().get("uid-t");
        assertThat(waiting.state()).isEqualTo(State.QUEUED);
        assertThat(waiting.reason())
                .isEqualTo("waits for what its pods need: Secret ml/hf (spec.template.spec.containers[0].env[0]"
                        + ".valueFrom.secretKeyRef.name) does not exist on the hub. It is placed once the hub has it");
        assertThat(hubWrites)
                .anyMatch(w -> w.startsWith("event train MissingDependency: waits for what its pods need"));

        hubHas(Dependency.Kind.SECRET, "hf", "token: aGY=");
        step(new Input.DependencyChanged(Dependency.Kind.SECRET, "ml", "hf"));
        assertThat(commands).containsExactly("apply uid-t@east#1");
        Command.Apply first = applies().get(0);
        assertThat(named(first)).containsExactly("ConfigMap settings", "Secret hf");
        assertThat(first.dependencies().get(1).path("data").path("token").asText())
                .isEqualTo("aGY=");
        assertThat(first.dependencies().get(1).path("metadata").has("uid")).isFalse(); // the hub's identity stays
        assertThat(first.toString()).doesNotContain("aGY=");

        // the ConfigMap changes on the hub: the apply goes again at the same epoch, with the new data
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.2'");
        step(new Input.DependencyChanged(Dependency.Kind.CONFIG_MAP, "ml", "settings"));
        assertThat(commands).containsExactly("apply uid-t@east#1", "apply uid-t@east#1");
        assertThat(applies()
                        .get(1)
                        .dependencies()
                        .get(0)
                        .path("data")
                        .path("lr")
                        .asText())
                .isEqualTo("0.2");
        // a change to a ConfigMap nobody uses sends nothing
        step(new Input.DependencyChanged(Dependency.Kind.CONFIG_MAP, "ml", "unrelated"));
        assertThat(commands).hasSize(2);
    }

    @Test
    void aGangThatReadsAServiceAccountTokenOfTheHubWaitsAndNothingIsSent() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        dependencies.put("ml/Secret/hf", yaml("""
                apiVersion: v1
                kind: Secret
                metadata: {name: hf, namespace: ml}
                type: kubernetes.io/service-account-token
                data: {token: aGY=}
                """));
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0)), new Input.HubChanged(train("", "")));
        assertThat(commands).isEmpty();
        assertThat(coordinator.view().placements().get("uid-t").reason())
                .contains("Secret ml/hf is a service account token of the hub")
                .contains("never copied");
    }

    @Test
    void anOptionalReferenceIsCopiedWhenThereAndNeverWaitedFor() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        hubHas(Dependency.Kind.SECRET, "hf", "token: aGY=");
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(
                        train("", "- {name: F, valueFrom: {configMapKeyRef: {name: flags, key: f, optional: true}}}")));
        assertThat(commands).containsExactly("apply uid-t@east#1");
        assertThat(named(applies().get(0))).containsExactly("ConfigMap settings", "Secret hf");
    }

    @Test
    void aClusterThatRefusesSendsTheGangToTheNextThatFitsAndKeepsItsReason() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        hubHas(Dependency.Kind.SECRET, "hf", "token: aGY=");
        // east has one node with 8 free GPUs, west two: bin-packing prefers east (by hand: the fuller cluster)
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0, 8)),
                new Input.Cluster(cluster("west", 1, now, 0, 0)),
                new Input.HubChanged(train("", "")));
        assertThat(commands).containsExactly("apply uid-t@east#1");
        String denied = "admission webhook \"quota.example.com\" denied the request: team ml is over its GPU quota";
        step(new Input.Result(
                new CommandResult("east", "uid-t", 1, "apply", CommandResult.Outcome.FAILED, denied, now)));
        assertThat(commands).containsExactly("apply uid-t@east#1", "delete uid-t@east#2", "apply uid-t@west#2");
        PlacementRecord p = coordinator.view().placements().get("uid-t");
        assertThat(p.cluster()).contains("west");
        assertThat(p.refusals()).containsExactly(Map.entry("east", denied));
        assertThat(dev.cartograph.broker.api.Views.workload(coordinator.view(), p)
                        .path("refusals")
                        .path("east")
                        .asText())
                .isEqualTo(denied); // GET /api/v1/workloads shows them too
        assertThat(coordinator.view().fleet().reservations().get("uid-t").cluster())
                .isEqualTo("west");

        // west refuses too: no cluster is left, it waits with both reasons
        step(new Input.Result(new CommandResult(
                "west", "uid-t", 2, "apply", CommandResult.Outcome.REJECTED, "namespace ml is not allowed", now)));
        p = coordinator.view().placements().get("uid-t");
        assertThat(p.state()).isEqualTo(State.QUEUED);
        assertThat(p.epoch()).isEqualTo(3);
        assertThat(coordinator.view().fleet().reservations()).isEmpty();
        assertThat(hubWrites)
                .last()
                .asString()
                .contains("every cluster that could take it refused it: east (" + denied
                        + "); west (namespace ml is not allowed)");

        // the user changes the object: every cluster may be tried again
        step(new Input.HubChanged(train("parallelism: 1", "")));
        assertThat(coordinator.view().placements().get("uid-t").refusals()).isEmpty();
        assertThat(commands).last().isEqualTo("apply uid-t@east#3");
    }

    @Test
    void aChangeTheMemberRefusesLeavesTheRunningCopyAsItIsAndSaysWhy() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        hubHas(Dependency.Kind.SECRET, "hf", "token: aGY=");
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0, 0)),
                new Input.HubChanged(train("parallelism: 1", "")));
        step(new Input.Result(new CommandResult("east", "uid-t", 1, "apply", CommandResult.Outcome.APPLIED, "", now)));
        // the copy runs on east (its agent lists it)
        step(new Input.Workload(
                new dev.cartograph.protocol.WorkloadKey("east", "ml", "batch", "Job", "train"),
                java.util.Optional.of(new dev.cartograph.protocol.WorkloadSummary(
                        new dev.cartograph.protocol.WorkloadKey("east", "ml", "batch", "Job", "train"),
                        "batch/v1",
                        "agent-1",
                        1,
                        now,
                        java.util.Optional.of("uid-t"),
                        "Running",
                        List.of("Running"),
                        1,
                        dev.cartograph.interpreter.resources.ResourceList.EMPTY,
                        0,
                        List.of(),
                        null))));
        step(new Input.HubChanged(train("parallelism: 2", ""))); // one more pod: fits on east's other node
        assertThat(commands).containsExactly("apply uid-t@east#1", "apply uid-t@east#2");
        step(new Input.Result(new CommandResult(
                "east", "uid-t", 2, "apply", CommandResult.Outcome.FAILED, "Job.batch \"train\" is invalid", now)));
        PlacementRecord p = coordinator.view().placements().get("uid-t");
        assertThat(p.cluster()).contains("east");
        assertThat(p.state()).isEqualTo(State.APPLIED);
        assertThat(p.refusals()).isEmpty();
        assertThat(coordinator.view().fleet().reservations()).isEmpty(); // what the change reserved is free again
        assertThat(commands).containsExactly("apply uid-t@east#1", "apply uid-t@east#2"); // nothing deleted or moved
        assertThat(hubWrites)
                .contains("event train NotForwarded: east refused the change (Job.batch \"train\" is invalid); the"
                        + " running copy keeps its spec");
    }

    @Test
    void suspendReleasesTheGpusForAWaitingGangAndResumePlacesItAgainElsewhereWhenItsClusterIsFull() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        hubHas(Dependency.Kind.SECRET, "hf", "token: aGY=");
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(train("suspend: false", "")),
                new Input.HubChanged(job("other", "uid-o", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-t@east#1"); // other waits: east's one node is train's
        assertThat(coordinator.view().queue()).containsExactly("uid-o");

        step(new Input.HubChanged(train("suspend: true", "")));
        PlacementRecord p = coordinator.view().placements().get("uid-t");
        assertThat(p.state()).isEqualTo(State.SUSPENDED);
        assertThat(p.cluster()).contains("east");
        assertThat(p.reserved()).isEmpty();
        // the suspend goes to the copy at epoch 2; its GPUs are free at once: other is placed there
        assertThat(commands).containsExactly("apply uid-t@east#1", "apply uid-t@east#2", "apply uid-o@east#1");
        assertThat(applies().get(1).manifest().path("spec").path("suspend").asBoolean())
                .isTrue();
        assertThat(coordinator.view().fleet().reservations()).containsOnlyKeys("uid-o");
        assertThat(hubWrites).anyMatch(w -> w.startsWith("event train Suspended: suspended on the hub"));

        // resumed while east is full (other runs there); west has reported room since
        step(new Input.Cluster(cluster("west", 1, now, 0)));
        step(new Input.HubChanged(train("suspend: false", "")));
        assertThat(commands)
                .containsExactly(
                        "apply uid-t@east#1",
                        "apply uid-t@east#2",
                        "apply uid-o@east#1",
                        // one batch: its apply is staged first (one too large to send would leave nothing staged)
                        "apply uid-t@west#3",
                        "delete uid-t@east#3");
        assertThat(coordinator.view().placements().get("uid-t").cluster()).contains("west");
        // resumed, it is queued keeping east, where its suspended copy is; the cycle finds no room there, places it on
        // west, and its copy on east goes
        assertThat(hubWrites)
                .contains("event train Resumed: resumed on the hub; it is placed where it fits, on east first (its"
                        + " suspended copy is there)")
                .anyMatch(w -> w.startsWith("event train Placed: placed on west (epoch 3)")
                        && w.endsWith("; its suspended copy on east is deleted"))
                .noneMatch(w -> w.startsWith("event train Resumed: resumed on east"));
    }

    @Test
    void aGangSubmittedSuspendedHoldsNothingUntilResumedAndThenRunsAtHomeWhenItFits() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        hubHas(Dependency.Kind.SECRET, "hf", "token: aGY=");
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0)),
                new Input.HubChanged(train("suspend: true", "")));
        assertThat(commands).isEmpty();
        assertThat(coordinator.view().placements().get("uid-t").state()).isEqualTo(State.SUSPENDED);
        assertThat(coordinator.view().queue()).isEmpty();

        step(new Input.HubChanged(train("suspend: false", "")));
        assertThat(commands).containsExactly("apply uid-t@east#1");

        // suspended and resumed in place: east still has the room, so it resumes there at the next epochs
        step(new Input.HubChanged(train("suspend: true", "")));
        step(new Input.HubChanged(train("suspend: false", "")));
        assertThat(commands).containsExactly("apply uid-t@east#1", "apply uid-t@east#2", "apply uid-t@east#3");
        PlacementRecord p = coordinator.view().placements().get("uid-t");
        assertThat(p.state()).isEqualTo(State.PLACED);
        assertThat(p.reserved()).containsOnlyKeys("east-n0");
        assertThat(hubWrites)
                .anyMatch(w -> w.equals("event train Resumed: resumed on east (its pods fit there again)"));
    }

    @Test
    void aResumedGangRunsAgainWhereItsSuspendedCopyIsEvenWhenAnotherClusterWouldBeChosenForANewGang() {
        hubHas(Dependency.Kind.CONFIG_MAP, "settings", "lr: '0.1'");
        hubHas(Dependency.Kind.SECRET, "hf", "token: aGY=");
        // east: two free nodes; the gang takes one
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("east", 1, now, 0, 0)),
                new Input.HubChanged(train("suspend: false", "")));
        step(new Input.HubChanged(train("suspend: true", "")));
        // apac reports two free nodes of 8 GPUs: a new 8-GPU gang goes there (it fills a whole node either way, and
        // apac comes first), as the probe shows, and apac still has a free node after it
        step(new Input.Cluster(cluster("apac", 1, now, 0, 0)));
        step(new Input.HubChanged(job("probe", "uid-p", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-t@east#1", "apply uid-t@east#2", "apply uid-p@apac#1");

        step(new Input.HubChanged(train("suspend: false", "")));
        // by hand: east still has both nodes free; resuming the copy there beats moving it
        assertThat(commands)
                .containsExactly(
                        "apply uid-t@east#1", "apply uid-t@east#2", "apply uid-p@apac#1", "apply uid-t@east#3");
        assertThat(hubWrites).contains("event train Resumed: resumed on east (its pods fit there again)");
    }
}
