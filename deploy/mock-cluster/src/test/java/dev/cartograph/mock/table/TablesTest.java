package dev.cartograph.mock.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TablesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    private static final String CLUSTER = """
            {"apiVersion": "cartograph.dev/v1alpha1", "kind": "Cluster",
             "metadata": {"name": "gpu-east", "creationTimestamp": "2026-01-01T11:00:00Z", "labels": {"tier": "a"}},
             "status": {"ready": true, "models": ["H100", "A100"], "gpus": {"total": 32, "free": 2.9},
                        "heartbeat": "2026-01-01T11:55:00Z",
                        "conditions": [{"type": "Synced", "status": "False"}, {"type": "Ready", "status": "True"}]}}
            """;

    @Test
    void customResourceCellsFollowTheColumnTypes() throws Exception {
        Columns columns = Columns.customResource(List.of(
                column("Ready", "boolean", ".status.ready"),
                column("Models", "string", ".status.models"),
                column("Total", "integer", ".status.gpus.total"),
                column("Free", "integer", ".status.gpus.free"),
                column("Missing", "integer", ".status.pending"),
                column("Heartbeat", "date", ".status.heartbeat"),
                column("Cond", "string", ".status.conditions[?(@.type==\"Ready\")].status"),
                column("First", "string", ".status.conditions[0].type"),
                column("Tier", "string", ".metadata.labels.tier")));
        JsonNode table = Tables.ofObject(columns, JSON.readTree(CLUSTER), IncludeObject.METADATA, NOW);

        assertThat(columns.names())
                .containsExactly(
                        "Name", "Ready", "Models", "Total", "Free", "Missing", "Heartbeat", "Cond", "First", "Tier");
        // 2.9 truncates to 2 as an integer; 11:55 to 12:00 is 5m; lists print as compact JSON
        assertThat(table.path("rows").get(0).path("cells").toString())
                .isEqualTo(
                        "[\"gpu-east\",true,\"[\\\"H100\\\",\\\"A100\\\"]\",32,2,null,\"5m\",\"True\",\"Synced\",\"a\"]");
        assertThat(table.path("kind").asText()).isEqualTo("Table");
        assertThat(table.path("rows").get(0).path("object").path("kind").asText())
                .isEqualTo("PartialObjectMetadata");
        assertThat(table.path("rows")
                        .get(0)
                        .path("object")
                        .path("metadata")
                        .path("labels")
                        .path("tier")
                        .asText())
                .isEqualTo("a");
    }

    @Test
    void customResourceWithoutPrinterColumnsGetsNameAndAge() throws Exception {
        JsonNode list = JSON.readTree(
                "{\"kind\": \"List\", \"metadata\": {\"resourceVersion\": \"7\"}, \"items\": [" + CLUSTER + "]}");
        JsonNode table = Tables.ofList(Columns.customResource(List.of()), list, IncludeObject.NONE, NOW);
        assertThat(table.path("columnDefinitions").findValuesAsText("name")).containsExactly("Name", "Age");
        assertThat(table.path("rows").get(0).path("cells").toString()).isEqualTo("[\"gpu-east\",\"60m\"]");
        assertThat(table.path("rows").get(0).has("object")).isFalse();
        assertThat(table.path("metadata").path("resourceVersion").asText()).isEqualTo("7");
    }

    @Test
    void podCellsCountReadyContainersAndShowThePhase() throws Exception {
        JsonNode pod = JSON.readTree("""
                {"metadata": {"name": "p", "creationTimestamp": "2026-01-01T11:59:30Z"},
                 "spec": {"nodeName": "n1", "containers": [{"name": "a"}, {"name": "b"}]},
                 "status": {"phase": "Running", "containerStatuses": [
                   {"name": "a", "ready": true, "restartCount": 2},
                   {"name": "b", "ready": false, "restartCount": 1, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}
                """);
        JsonNode table = Tables.ofObject(Columns.builtIn("", "pods"), pod, IncludeObject.OBJECT, NOW);
        assertThat(table.path("rows").get(0).path("cells").toString())
                .isEqualTo(
                        "[\"p\",\"1/2\",\"CrashLoopBackOff\",\"3\",\"30s\",\"<none>\",\"n1\",\"<none>\",\"<none>\"]");
        assertThat(table.path("rows").get(0).path("object")).isEqualTo(pod);
    }

    @Test
    void nodeStatusAndRolesComeFromConditionsAndLabels() throws Exception {
        JsonNode node = JSON.readTree("""
                {"metadata": {"name": "n", "labels": {"node-role.kubernetes.io/worker": "", "node-role.kubernetes.io/gpu": ""}},
                 "spec": {"unschedulable": true},
                 "status": {"conditions": [{"type": "Ready", "status": "False"}], "nodeInfo": {"kubeletVersion": "v1.32.0"}}}
                """);
        JsonNode cells = Tables.ofObject(Columns.builtIn("", "nodes"), node, IncludeObject.NONE, NOW)
                .path("rows")
                .get(0)
                .path("cells");
        assertThat(cells.get(1).asText()).isEqualTo("NotReady,SchedulingDisabled");
        assertThat(cells.get(2).asText()).isEqualTo("gpu,worker");
        assertThat(cells.get(3).asText()).isEqualTo("<unknown>");
        assertThat(cells.get(4).asText()).isEqualTo("v1.32.0");
    }

    @Test
    void eventsOfBothApiGroupsShowTheirObjectAndMessage() throws Exception {
        JsonNode core = JSON.readTree("""
                {"metadata": {"name": "e1"}, "type": "Normal", "reason": "Placed", "message": " placed ",
                 "involvedObject": {"kind": "PyTorchJob", "name": "bert"}, "lastTimestamp": "2026-01-01T11:58:00Z"}
                """);
        JsonNode eventsV1 = JSON.readTree("""
                {"metadata": {"name": "e2"}, "type": "Warning", "reason": "Failed", "note": "no GPUs",
                 "regarding": {"kind": "Pod", "name": "p"}, "eventTime": "2026-01-01T11:00:00.000000Z", "reportingController": "ctl"}
                """);
        Columns columns = Columns.builtIn("", "events");
        assertThat(columns.names())
                .containsExactly(
                        "Last Seen",
                        "Type",
                        "Reason",
                        "Object",
                        "Subobject",
                        "Source",
                        "Message",
                        "First Seen",
                        "Count",
                        "Name");
        assertThat(Tables.ofObject(columns, core, IncludeObject.NONE, NOW)
                        .path("rows")
                        .get(0)
                        .path("cells")
                        .toString())
                .isEqualTo(
                        "[\"2m\",\"Normal\",\"Placed\",\"pytorchjob/bert\",\"\",\"\",\"placed\",\"<unknown>\",1,\"e1\"]");
        assertThat(Tables.ofObject(Columns.builtIn("events.k8s.io", "events"), eventsV1, IncludeObject.NONE, NOW)
                        .path("rows")
                        .get(0)
                        .path("cells")
                        .toString())
                .isEqualTo("[\"60m\",\"Warning\",\"Failed\",\"pod/p\",\"\",\"ctl\",\"no GPUs\",\"60m\",1,\"e2\"]");
    }

    @Test
    void agesFollowHumanDuration() {
        // hand-checked against k8s.io/apimachinery/pkg/util/duration.HumanDuration's thresholds
        assertThat(Ages.human(Duration.ofSeconds(-1))).isEqualTo("0s");
        assertThat(Ages.human(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
        assertThat(Ages.human(Duration.ofSeconds(119))).isEqualTo("119s");
        assertThat(Ages.human(Duration.ofSeconds(5 * 60 + 12))).isEqualTo("5m12s");
        assertThat(Ages.human(Duration.ofMinutes(7))).isEqualTo("7m");
        assertThat(Ages.human(Duration.ofMinutes(179))).isEqualTo("179m");
        assertThat(Ages.human(Duration.ofMinutes(3 * 60 + 20))).isEqualTo("3h20m");
        assertThat(Ages.human(Duration.ofHours(47))).isEqualTo("47h");
        assertThat(Ages.human(Duration.ofHours(4 * 24 + 2))).isEqualTo("4d2h");
        assertThat(Ages.human(Duration.ofDays(100))).isEqualTo("100d");
        assertThat(Ages.human(Duration.ofDays(2 * 365 + 3))).isEqualTo("2y3d");
        assertThat(Ages.human(Duration.ofDays(9 * 365))).isEqualTo("9y");
    }

    @Test
    void pathsOutsideTheSubsetGiveEmptyCells() throws Exception {
        assertThat(SimpleJsonPath.compile("..status")).isEmpty();
        assertThat(SimpleJsonPath.compile("{.metadata.labels['app.kubernetes.io/name']}")
                        .orElseThrow()
                        .first(JSON.readTree("{\"metadata\":{\"labels\":{\"app.kubernetes.io/name\":\"x\"}}}"))
                        .orElseThrow()
                        .asText())
                .isEqualTo("x");
        assertThat(SimpleJsonPath.compile(".a[-1]")
                        .orElseThrow()
                        .first(JSON.readTree("{\"a\":[1,2,3]}"))
                        .orElseThrow()
                        .asInt())
                .isEqualTo(3);
        assertThat(SimpleJsonPath.compile(".a[?(@.n!=1)].n")
                        .orElseThrow()
                        .evaluate(JSON.readTree("{\"a\":[{\"n\":1},{\"n\":2}]}")))
                .hasSize(1);
    }

    private static CustomResourceColumnDefinition column(String name, String type, String path) {
        CustomResourceColumnDefinition c = new CustomResourceColumnDefinition();
        c.setName(name);
        c.setType(type);
        c.setJsonPath(path);
        return c;
    }
}
