package dev.cartograph.local.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.fairshare.QueueReport;
import dev.cartograph.fairshare.QueueSpecs;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.kube.crd.CartographCrds;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Queue CRD (interpreter/kube) and the broker (broker/core) agree: every spec {@link QueueSpecs} takes passes the
 * CRD's schema; what it refuses with a reason (a cpu quota, matchExpressions) passes too and is kept, so the reason
 * reaches the Queue's status instead of the field being pruned unseen; the status {@link QueueReport.Row#status()}
 * writes is kept whole; and the printer columns read the keys it writes. The schema is checked by {@link Schema}, the
 * subset of a structural schema's validation and pruning this CRD uses (an API server is not at hand in a pure test).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class QueueCrdTest {
    private static final Path EXAMPLES = Path.of("..", "examples", "queues.yaml");
    /** The CRD's one version as written in its resource (not through fabric8's model, which adds empty fields). */
    private static final JsonNode V1ALPHA1 = version();

    private static final JsonNode SCHEMA = V1ALPHA1.path("schema").path("openAPIV3Schema");

    @Test
    void everySpecTheBrokerTakesPassesTheSchemaUnpruned() throws Exception {
        List<String> specs = List.of(
                "{namespaces: [team-a, team-a-dev]}",
                "{namespaceSelector: {matchLabels: {team: a}}, parent: research}",
                "{namespaces: [x], weight: 2}",
                "{namespaces: [x], weight: 0.5}",
                "{namespaces: [x], weight: '1.5'}", // QueueSpecs reads a decimal string as a number
                "{namespaces: [x], quota: {gpus: {NVIDIA-H100-80GB-HBM3: 16, NVIDIA-A100-SXM4-80GB: '8'}}}",
                "{namespaces: [x], quota: {gpus: {H100: 0}}, borrowingLimit: {gpus: {H100: 0}}}",
                "{namespaces: [x], preemption: Never}",
                "{namespaces: [x], preemption: ReclaimOnly}",
                "{namespaces: [x], preemption: LowerPriority}");
        for (String spec : specs) {
            JsonNode queue = queue(spec);
            assertThat(QueueSpecs.read(queue)).as(spec).isInstanceOf(QueueSpecs.Valid.class);
            assertThat(Schema.problems(SCHEMA, queue, "")).as(spec).isEmpty();
        }
    }

    @Test
    void whatTheBrokerRefusesWithAReasonIsKeptForItToRefuse() throws Exception {
        Map<String, String> refusedAt = Map.of(
                "{namespaces: [x], quota: {cpu: 64}}", "spec.quota.cpu",
                "{namespaces: [x], quota: {memory: 512Gi}}", "spec.quota.memory",
                "{namespaces: [x], quota: {gpus: {H100: 4}, nvidia.com/gpu: 8}}", "spec.quota.nvidia.com/gpu",
                "{namespaces: [x], borrowingLimit: {cpu: '8'}}", "spec.borrowingLimit.cpu",
                "{namespaces: [x], quota: {gpus: {H100: '1.5'}}}", "spec.quota.gpus.H100",
                "{namespaces: [x], borrowingLimit: {gpus: {H100: -1}}}", "spec.borrowingLimit.gpus.H100",
                "{namespaces: [x], weight: zero}", "spec.weight",
                "{namespaceSelector: {matchLabels: {team: a}, matchExpressions: []}}", "spec.namespaceSelector");
        refusedAt.forEach((spec, field) -> {
            JsonNode queue = queue(spec);
            assertThat(QueueSpecs.read(queue))
                    .as(spec)
                    .isInstanceOfSatisfying(
                            QueueSpecs.Invalid.class, i -> assertThat(i.field()).isEqualTo(field));
            assertThat(Schema.problems(SCHEMA, queue, "")).as(spec).isEmpty();
        });
    }

    @Test
    void theApiServerRefusesWhatTheBrokerWouldRefuseAnyway() {
        assertThat(Schema.problems(SCHEMA, queue("{namespaces: [x], preemption: Always}"), ""))
                .containsExactly(".spec.preemption: \"Always\" is not one of [Never, ReclaimOnly, LowerPriority]");
        assertThat(Schema.problems(SCHEMA, queue("{namespaces: [x], quota: {gpus: {H100: lots}}}"), ""))
                .containsExactly(".spec.quota.gpus.H100: \"lots\" does not match ^[0-9]+(\\.[0-9]+)?$");
        assertThat(Schema.problems(SCHEMA, queue("{namespaces: [x], wieght: 2}"), ""))
                .containsExactly(".spec.wieght: unknown field");
        assertThat(QueueSpecs.read(queue("{namespaces: [x], preemption: Always}")))
                .isInstanceOf(QueueSpecs.Invalid.class);
        assertThat(QueueSpecs.read(queue("{namespaces: [x], quota: {gpus: {H100: lots}}}")))
                .isInstanceOf(QueueSpecs.Invalid.class);
    }

    @Test
    void theStatusTheBrokerWritesIsKeptAndItsColumnsReadIt() {
        // team-a: 16 H100 promised, 24 held (8 borrowed), 8 A100 held (nominal 0: all borrowed), 3 gangs waiting
        QueueReport.Row row = new QueueReport.Row(
                "team-a",
                Optional.empty(),
                2,
                List.of(
                        new QueueReport.Model("NVIDIA-A100-SXM4-80GB", 0, 8, 8),
                        new QueueReport.Model("NVIDIA-H100-80GB-HBM3", 16, 24, 8)),
                16,
                32,
                16,
                3,
                0.25,
                List.of("spec.quota.cpu: not supported: quota is counted in GPUs per model (gpus)"));
        ObjectNode queue = (ObjectNode) queue("{namespaces: [team-a], weight: 2}");
        queue.set("status", Documents.json().valueToTree(row.status()));

        assertThat(Schema.problems(SCHEMA, queue, "")).isEmpty();
        Map<String, String> cells = new java.util.LinkedHashMap<>();
        for (JsonNode column : V1ALPHA1.path("additionalPrinterColumns")) {
            String path = column.path("jsonPath").asText();
            if (!path.startsWith(".metadata")) {
                cells.put(column.path("name").asText(), at(queue, path));
            }
        }
        assertThat(cells)
                .containsExactly(
                        Map.entry("Nominal", "16"),
                        Map.entry("In Use", "32"),
                        Map.entry("Borrowed", "16"),
                        Map.entry("Waiting", "3"),
                        Map.entry("Weight", "2"),
                        Map.entry("Parent", ""),
                        Map.entry("Share", "0.25"));
    }

    @Test
    void theExampleQueuesAreTakenByTheBrokerAndPassTheSchema() throws Exception {
        List<JsonNode> queues = new ArrayList<>();
        try (InputStream in = Files.newInputStream(EXAMPLES)) {
            for (JsonNode doc : Documents.read(in)) {
                if (doc.path("kind").asText().equals("Queue")) {
                    queues.add(doc);
                }
            }
        }
        assertThat(queues)
                .extracting(q -> q.path("metadata").path("name").asText())
                .containsExactly("team-a", "team-b");
        for (JsonNode q : queues) {
            assertThat(QueueSpecs.read(q)).isInstanceOf(QueueSpecs.Valid.class);
            assertThat(Schema.problems(SCHEMA, q, "")).isEmpty();
        }
        assertThat(queues.get(0).path("spec").path("weight").asDouble()).isEqualTo(2);
        assertThat(queues.get(1).path("spec").path("weight").asDouble()).isEqualTo(1);
    }

    private static JsonNode version() {
        try (InputStream in = CartographCrds.class.getResourceAsStream(CartographCrds.QUEUES)) {
            JsonNode crd = Documents.read(in).get(0);
            assertThat(crd.path("spec").path("versions")).hasSize(1);
            return crd.path("spec").path("versions").get(0);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode queue(String spec) {
        try {
            return Documents.read(new java.io.ByteArrayInputStream(
                            ("apiVersion: cartograph.dev/v1alpha1\nkind: Queue\nmetadata: {name: q}\nspec: " + spec)
                                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .get(0);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The value a printer column's simple path ({@code .a.b}) selects, as text; {@code ""} when absent. */
    private static String at(JsonNode object, String path) {
        JsonNode node = object;
        for (String part : path.substring(1).split("\\.")) {
            node = node.path(part);
        }
        return node.isMissingNode() ? "" : node.asText();
    }

    /**
     * The checks of a structural schema this CRD relies on: type (integer, number, string, boolean, array, object),
     * {@code x-kubernetes-int-or-string}, {@code enum}, {@code pattern}; and pruning: a field that
     * neither {@code properties} nor {@code additionalProperties} declares under an object without
     * {@code x-kubernetes-preserve-unknown-fields} is reported as unknown (a strict API server refuses it, a lenient
     * one drops it). A node with neither type nor int-or-string takes any value only when it preserves unknown fields.
     */
    static final class Schema {
        private Schema() {}

        static List<String> problems(JsonNode schema, JsonNode value, String path) {
            List<String> out = new ArrayList<>();
            check(schema, value, path, out);
            return out;
        }

        private static void check(JsonNode schema, JsonNode value, String path, List<String> out) {
            String type = schema.path("type").asText("");
            boolean intOrString = schema.path("x-kubernetes-int-or-string").asBoolean();
            boolean preserve =
                    schema.path("x-kubernetes-preserve-unknown-fields").asBoolean();
            if (intOrString && !(value.isIntegralNumber() || value.isTextual())) {
                out.add(path + ": must be an integer or a string, not " + value);
                return;
            }
            if (type.isEmpty() && !intOrString && !preserve) {
                out.add(path + ": the schema gives no type (not structural)");
                return;
            }
            if (!type.isEmpty() && !hasType(type, value)) {
                out.add(path + ": must be of type " + type + ", not " + value);
                return;
            }
            if (schema.has("enum") && !contains(schema.path("enum"), value)) {
                out.add(path + ": " + value + " is not one of " + texts(schema.path("enum")));
            }
            if (schema.has("pattern")
                    && value.isTextual()
                    && !value.asText().matches(schema.path("pattern").asText().replaceAll("^\\^|\\$$", ""))) {
                out.add(path + ": " + value + " does not match "
                        + schema.path("pattern").asText());
            }
            if (value.isArray() && schema.has("items")) {
                for (int i = 0; i < value.size(); i++) {
                    check(schema.path("items"), value.get(i), path + "[" + i + "]", out);
                }
            }
            if (value.isObject() && type.equals("object") && !path.equals(".metadata")) { // the server's own
                value.fields().forEachRemaining(e -> {
                    String at = path + "." + e.getKey();
                    if (schema.path("properties").has(e.getKey())) {
                        check(schema.path("properties").path(e.getKey()), e.getValue(), at, out);
                    } else if (schema.path("additionalProperties").isObject()) {
                        check(schema.path("additionalProperties"), e.getValue(), at, out);
                    } else if (!preserve) {
                        out.add(at + ": unknown field");
                    }
                });
            }
        }

        private static boolean hasType(String type, JsonNode value) {
            return switch (type) {
                case "object" -> value.isObject();
                case "array" -> value.isArray();
                case "string" -> value.isTextual();
                case "integer" -> value.isIntegralNumber();
                case "number" -> value.isNumber();
                case "boolean" -> value.isBoolean();
                default -> false;
            };
        }

        private static boolean contains(JsonNode list, JsonNode value) {
            for (JsonNode v : list) {
                if (v.equals(value)) {
                    return true;
                }
            }
            return false;
        }

        private static List<String> texts(JsonNode list) {
            List<String> out = new ArrayList<>();
            list.forEach(v -> out.add(v.asText()));
            return out;
        }
    }
}
