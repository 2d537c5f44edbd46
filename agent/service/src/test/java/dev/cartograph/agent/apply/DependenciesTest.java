package dev.cartograph.agent.apply;

import static dev.cartograph.agent.apply.ApplyPolicyTest.JOB;
import static dev.cartograph.agent.apply.ApplyPolicyTest.POLICY;
import static dev.cartograph.agent.apply.ApplyPolicyTest.T;
import static dev.cartograph.agent.apply.ApplyPolicyTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DependenciesTest {
    static final String SECRET = "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: ml, uid: hub-uid,"
            + " resourceVersion: \"7\", labels: {team: a}}\ntype: Opaque\ndata: {token: czNjcjN0}\n";
    static final String CLAIM = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: ml}\n"
            + "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}, volumeName: hub-pv}\n";
    static final String CONFIG =
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ml}\n" + "data: {a: \"1\"}\n";

    /** What the member holds after {@code change}, as a real server would echo it (with a resourceVersion). */
    static JsonNode stored(Dependencies.Change change, String resourceVersion) {
        JsonNode object = change instanceof Dependencies.Change.Create c
                ? c.object()
                : ((Dependencies.Change.Replace) change).object();
        ObjectNode copy = object.deepCopy();
        copy.with("metadata").put("resourceVersion", resourceVersion);
        return copy;
    }

    @Test
    void anAbsentDependencyIsCreatedMarkedAsCartographsAndLabelledForThePlacement() throws Exception {
        Dependencies.Change c = Dependencies.use(Optional.empty(), yaml(SECRET), "p-1");
        JsonNode created = ((Dependencies.Change.Create) c).object();
        assertThat(created.at("/metadata/labels"))
                .isEqualTo(yaml("l: {team: a, app.kubernetes.io/managed-by: cartograph-agent,"
                                + " cartograph.dev/dependency: \"true\", used-by.cartograph.dev/p-1: \"true\"}")
                        .get("l"));
        assertThat(created.at("/metadata/uid").isMissingNode()).isTrue(); // the hub's identity stays on the hub
        assertThat(created.at("/data/token").asText()).isEqualTo("czNjcjN0");
        assertThat(Dependencies.ours(created)).isTrue();
    }

    @Test
    void aForeignObjectUnderTheNameIsRefusedAsFailedNamingItAndOneBeingDeletedIsRetried() throws Exception {
        JsonNode foreign = yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ml,"
                + " labels: {app.kubernetes.io/managed-by: cartograph-agent}}\ndata: {a: \"0\"}\n"); // one mark only
        assertThat(Dependencies.use(Optional.of(foreign), yaml(CONFIG), "p-1"))
                .isEqualTo(new Dependencies.Change.Refuse(
                        CommandResult.Outcome.FAILED,
                        "ConfigMap ml/settings already exists on this cluster and was not created by Cartograph;"
                                + " it is left alone"));
        ObjectNode going = (ObjectNode) stored(Dependencies.use(Optional.empty(), yaml(CONFIG), "p-2"), "3");
        going.with("metadata").put("deletionTimestamp", "2026-12-02T12:00:00Z");
        assertThat(Dependencies.use(Optional.of(going), yaml(CONFIG), "p-1"))
                .isInstanceOf(Dependencies.Change.Refuse.class)
                .extracting(r -> ((Dependencies.Change.Refuse) r).outcome())
                .isEqualTo(CommandResult.Outcome.RETRY);
    }

    @Test
    void aSecondPlacementAddsItsLabelAndChangedContentReplacesTheOldKeepingTheResourceVersion() throws Exception {
        JsonNode first = stored(Dependencies.use(Optional.empty(), yaml(SECRET), "p-1"), "11");
        assertThat(Dependencies.use(Optional.of(first), yaml(SECRET), "p-1"))
                .isEqualTo(new Dependencies.Change.None()); // the same apply again writes nothing
        JsonNode changed = yaml(SECRET.replace("token: czNjcjN0", "other: eA=="));
        JsonNode next = ((Dependencies.Change.Replace) Dependencies.use(Optional.of(first), changed, "p-2")).object();
        assertThat(next.at("/data")).isEqualTo(yaml("d: {other: eA==}").get("d")); // token removed, as on the hub
        assertThat(next.at("/metadata/labels/used-by.cartograph.dev~1p-1").asText())
                .isEqualTo("true");
        assertThat(next.at("/metadata/labels/used-by.cartograph.dev~1p-2").asText())
                .isEqualTo("true");
        assertThat(next.at("/metadata/resourceVersion").asText()).isEqualTo("11");
    }

    @Test
    void aClaimKeepsItsSpecAndGainsOnlyTheLabel() throws Exception {
        JsonNode created =
                ((Dependencies.Change.Create) Dependencies.use(Optional.empty(), yaml(CLAIM), "p-1")).object();
        assertThat(created.at("/spec/volumeName").isMissingNode()).isTrue(); // the hub's volume is not the member's
        ObjectNode bound = (ObjectNode) stored(new Dependencies.Change.Create(created), "5");
        bound.with("spec").put("volumeName", "member-pv");
        JsonNode bigger = yaml(CLAIM.replace("10Gi", "20Gi"));
        JsonNode next = ((Dependencies.Change.Replace) Dependencies.use(Optional.of(bound), bigger, "p-2")).object();
        assertThat(next.at("/spec")).isEqualTo(bound.at("/spec"));
        assertThat(next.at("/metadata/labels/used-by.cartograph.dev~1p-2").asText())
                .isEqualTo("true");
        assertThat(Dependencies.use(Optional.of(bound), bigger, "p-1")).isEqualTo(new Dependencies.Change.None());
    }

    @Test
    void releaseDeletesWhatNoPlacementUsesKeepsWhatAnotherUsesAndNeverDeletesAClaim() throws Exception {
        JsonNode one = stored(Dependencies.use(Optional.empty(), yaml(CONFIG), "p-1"), "1");
        assertThat(Dependencies.release(Optional.of(one), "p-1")).isEqualTo(new Dependencies.Change.Delete(one));
        JsonNode two = stored(Dependencies.use(Optional.of(one), yaml(CONFIG), "p-2"), "2");
        JsonNode kept = ((Dependencies.Change.Replace) Dependencies.release(Optional.of(two), "p-1")).object();
        assertThat(kept.at("/metadata/labels").has("used-by.cartograph.dev/p-1"))
                .isFalse();
        assertThat(kept.at("/metadata/labels").has("used-by.cartograph.dev/p-2"))
                .isTrue();
        JsonNode claim = stored(Dependencies.use(Optional.empty(), yaml(CLAIM), "p-1"), "3");
        JsonNode unlabelled = ((Dependencies.Change.Replace) Dependencies.release(Optional.of(claim), "p-1")).object();
        assertThat(Dependencies.ours(unlabelled)).isTrue();
        assertThat(unlabelled.at("/metadata/labels").has("used-by.cartograph.dev/p-1"))
                .isFalse();
        assertThat(Dependencies.release(Optional.of(unlabelled), "p-1")).isEqualTo(new Dependencies.Change.None());
        assertThat(Dependencies.release(Optional.of(yaml(CONFIG)), "p-1")).isEqualTo(new Dependencies.Change.None());
    }

    @Test
    void labelKeysAreThePlacementIdWhenValidAndAStableHashOtherwise() {
        String uid = "0f8fad5b-d9cb-469f-a165-70867728950e"; // a hub uid, what the broker uses as placement id
        assertThat(Dependencies.usedBy(uid)).isEqualTo("used-by.cartograph.dev/" + uid);
        String tooLong = "p".repeat(64);
        String hashed = Dependencies.usedBy(tooLong);
        // prefix 23 characters + "sha256-" 7 + 56 hex digits: the name part is 63 characters, the most allowed
        assertThat(hashed).hasSize(23 + 63).startsWith("used-by.cartograph.dev/sha256-");
        assertThat(Dependencies.usedBy(tooLong)).isEqualTo(hashed);
        assertThat(Dependencies.usedBy("ns/name")).isNotEqualTo(Dependencies.usedBy("ns-name"));
        assertThat(Dependencies.usedBy("-p")).contains("sha256-"); // must start alphanumeric
    }

    @Test
    void droppedAreTheLabelledNoLongerListedAndOnlyOurLabelledCopyCountsAsLabelled() throws Exception {
        DependencyRef secret = new DependencyRef("Secret", "ml", "creds");
        DependencyRef old = new DependencyRef("ConfigMap", "ml", "old");
        assertThat(Dependencies.dropped(List.of(secret, old), List.of(yaml(SECRET), yaml(CONFIG))))
                .containsExactly(old);
        JsonNode labelled = stored(Dependencies.use(Optional.empty(), yaml(CONFIG), "p-1"), "1");
        assertThat(Dependencies.labelledFor(Optional.of(labelled), "p-1")).isTrue();
        assertThat(Dependencies.labelledFor(Optional.of(labelled), "p-2")).isFalse();
        assertThat(Dependencies.labelledFor(Optional.empty(), "p-1")).isFalse();
        ObjectNode unmarked = labelled.deepCopy();
        ((ObjectNode) unmarked.with("metadata").with("labels")).remove("cartograph.dev/dependency");
        assertThat(Dependencies.labelledFor(Optional.of(unmarked), "p-1")).isFalse(); // not ours: never counted
    }

    @Test
    void thePolicyRejectsAnotherKindAnotherNamespaceAServiceAccountTokenOrATwiceListedDependency() throws Exception {
        String token = "apiVersion: v1\nkind: Secret\nmetadata: {name: t, namespace: ml}\n"
                + "type: kubernetes.io/service-account-token\n";
        String elsewhere = CONFIG.replace("namespace: ml", "namespace: other");
        String role = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: ml}\n";
        assertThat(reason(role)).startsWith("dependencies[1]: Role ml/r is not a v1 ConfigMap");
        assertThat(reason(elsewhere))
                .isEqualTo("dependencies[1]: ConfigMap other/settings is not in the workload's namespace ml;"
                        + " a dependency is copied only into its workload's namespace");
        assertThat(reason(token)).startsWith("dependencies[1]: Secret ml/t is a service account token");
        assertThat(reason(SECRET)).isEqualTo("dependencies[1]: Secret ml/creds is listed twice");
        assertThat(POLICY.decide(apply(CONFIG), Optional.empty())).isInstanceOf(ApplyPolicy.Decision.Create.class);
    }

    static Command.Apply apply(String second) throws Exception {
        return new Command.Apply("p-1", 1, T, yaml(JOB), List.of(yaml(SECRET), yaml(second)));
    }

    static String reason(String second) throws Exception {
        return ((ApplyPolicy.Decision.Reject) POLICY.decide(apply(second), Optional.empty())).reason();
    }
}
