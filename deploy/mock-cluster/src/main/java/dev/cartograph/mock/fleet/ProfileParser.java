package dev.cartograph.mock.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.mock.admission.AdmissionRule;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Turns fleet-profile YAML into records, collecting every problem with its cluster and field. Not thread-safe: one per parse. */
final class ProfileParser {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern QUANTITY = Pattern.compile("[0-9]+(\\.[0-9]+)?(m|k|Ki|Mi|Gi|Ti|Pi|Ei|M|G|T|P|E)?");
    private static final Set<String> CLUSTER_FIELDS = Set.of("name", "labels", "nodePools", "admission");
    private static final Set<String> POOL_FIELDS =
            Set.of("name", "count", "gpuProduct", "gpus", "cpu", "memory", "pods", "usedGpus", "taints", "labels");
    private static final Set<String> TAINT_FIELDS = Set.of("key", "value", "effect");
    private static final int DEFAULT_PODS = 110;

    private final String origin;
    private final List<ProfileProblem> problems = new ArrayList<>();
    private Optional<String> cluster = Optional.empty();

    ProfileParser(String origin) {
        this.origin = origin;
    }

    FleetProfile.Parsed parse(InputStream in) {
        JsonNode root;
        try {
            root = YAML.readTree(in);
        } catch (IOException e) {
            problem("", "is not valid YAML: " + firstLine(e.getMessage()));
            return result(List.of());
        }
        if (root == null
                || !root.isObject()
                || !root.path("clusters").isArray()
                || root.path("clusters").isEmpty()) {
            problem("clusters", "must be a non-empty list of clusters");
            return result(List.of());
        }
        List<ClusterProfile> clusters = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < root.path("clusters").size(); i++) {
            cluster = Optional.empty();
            clusterProfile(root.path("clusters").get(i), "clusters[" + i + "]", names)
                    .ifPresent(clusters::add);
        }
        return result(clusters);
    }

    private FleetProfile.Parsed result(List<ClusterProfile> clusters) {
        return new FleetProfile.Parsed(
                problems.isEmpty() ? Optional.of(new FleetProfile(clusters)) : Optional.empty(), problems);
    }

    private Optional<ClusterProfile> clusterProfile(JsonNode node, String at, Set<String> names) {
        if (!node.isObject()) {
            problem(at, "must be a mapping with name, labels and nodePools");
            return Optional.empty();
        }
        String name = dnsName(node, at + ".name");
        if (name != null) {
            cluster = Optional.of(name);
            if (!names.add(name)) {
                problem("name", "duplicates another cluster's name");
            }
        }
        String prefix = cluster.isPresent() ? "" : at + ".";
        unknownFields(node, CLUSTER_FIELDS, prefix);
        Map<String, String> labels = labels(node.path("labels"), prefix + "labels");
        int beforeAdmission = problems.size();
        List<AdmissionRule> admission = new AdmissionParser(this).rules(node.path("admission"), prefix + "admission");
        boolean admissionValid = problems.size() == beforeAdmission;
        JsonNode pools = node.path("nodePools");
        if (!pools.isArray() || pools.isEmpty()) {
            problem(prefix + "nodePools", "must be a non-empty list of node pools");
            return Optional.empty();
        }
        List<NodePool> parsed = new ArrayList<>();
        Set<String> poolNames = new HashSet<>();
        for (int i = 0; i < pools.size(); i++) {
            nodePool(pools.get(i), prefix + "nodePools[" + i + "]", poolNames).ifPresent(parsed::add);
        }
        return name == null || parsed.size() != pools.size() || !admissionValid
                ? Optional.empty()
                : Optional.of(new ClusterProfile(name, labels, parsed, admission));
    }

    private Optional<NodePool> nodePool(JsonNode node, String at, Set<String> poolNames) {
        if (!node.isObject()) {
            problem(at, "must be a mapping with name, count, gpus, cpu and memory");
            return Optional.empty();
        }
        int before = problems.size();
        unknownFields(node, POOL_FIELDS, at + ".");
        String name = dnsName(node, at + ".name");
        if (name != null && !poolNames.add(name)) {
            problem(at + ".name", "duplicates another pool's name in this cluster");
        }
        int count = integer(node, "count", at, 1, null);
        int gpus = integer(node, "gpus", at, 0, 0);
        int pods = integer(node, "pods", at, 1, DEFAULT_PODS);
        Optional<String> product = gpuProduct(node, at, gpus);
        String cpu = quantity(node, "cpu", at);
        String memory = quantity(node, "memory", at);
        List<Integer> used = usedGpus(node.path("usedGpus"), at + ".usedGpus", count, gpus);
        List<Taint> taints = taints(node.path("taints"), at + ".taints");
        Map<String, String> labels = labels(node.path("labels"), at + ".labels");
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new NodePool(name, count, product, gpus, cpu, memory, pods, used, taints, labels));
    }

    private Optional<String> gpuProduct(JsonNode node, String at, int gpus) {
        JsonNode product = node.path("gpuProduct");
        if (product.isMissingNode() || product.isNull()) {
            if (gpus > 0) {
                problem(at + ".gpuProduct", "is required when gpus > 0 (e.g. NVIDIA-H100-80GB-HBM3)");
            }
            return Optional.empty();
        }
        if (!product.isTextual() || product.asText().isBlank()) {
            problem(at + ".gpuProduct", "must be a non-empty string");
            return Optional.empty();
        }
        if (gpus == 0) {
            problem(at + ".gpuProduct", "is set but gpus is 0; set gpus or remove gpuProduct");
        }
        return Optional.of(product.asText());
    }

    private List<Integer> usedGpus(JsonNode node, String at, int count, int gpus) {
        if (node.isMissingNode() || node.isNull()) {
            return count > 0 ? java.util.Collections.nCopies(count, 0) : List.of();
        }
        if (!node.isArray()) {
            problem(at, "must be a list with one GPU count per node");
            return List.of();
        }
        if (count > 0 && node.size() != count) {
            problem(at, "has " + node.size() + " entries but count is " + count + "; give one entry per node");
        }
        List<Integer> used = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode u = node.get(i);
            if (!u.canConvertToInt() || !u.isIntegralNumber() || u.asInt() < 0 || u.asInt() > gpus) {
                problem(at + "[" + i + "]", "must be an integer from 0 to gpus (" + gpus + "), was " + u);
            } else {
                used.add(u.asInt());
            }
        }
        return used;
    }

    private List<Taint> taints(JsonNode node, String at) {
        if (node.isMissingNode() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            problem(at, "must be a list of {key, value, effect}");
            return List.of();
        }
        List<Taint> taints = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode t = node.get(i);
            String tAt = at + "[" + i + "]";
            unknownFields(t, TAINT_FIELDS, tAt + ".");
            String key = t.path("key").asText("");
            String effect = t.path("effect").asText("");
            if (key.isBlank()) {
                problem(tAt + ".key", "is required");
            }
            if (!Taint.EFFECTS.contains(effect)) {
                problem(
                        tAt + ".effect",
                        "must be one of NoSchedule, PreferNoSchedule, NoExecute, was '" + effect + "'");
            }
            if (!key.isBlank() && Taint.EFFECTS.contains(effect)) {
                JsonNode value = t.path("value");
                taints.add(new Taint(key, value.isValueNode() && !value.isNull() ? value.asText() : "", effect));
            }
        }
        return taints;
    }

    private Map<String, String> labels(JsonNode node, String at) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (node.isMissingNode() || node.isNull()) {
            return labels;
        }
        if (!node.isObject()) {
            problem(at, "must be a mapping of label names to values");
            return labels;
        }
        node.properties().forEach(e -> {
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                problem(at + "." + e.getKey(), "must be a string value");
            } else {
                labels.put(e.getKey(), e.getValue().asText());
            }
        });
        return labels;
    }

    private String dnsName(JsonNode node, String at) {
        JsonNode name = node.path("name");
        if (!name.isTextual()
                || !DNS_LABEL.matcher(name.asText()).matches()
                || name.asText().length() > 63) {
            problem(
                    at,
                    "is required: lowercase letters, digits and '-', was " + (name.isMissingNode() ? "missing" : name));
            return null;
        }
        return name.asText();
    }

    /** An integer field at least {@code min}; {@code fallback} when absent, or a problem when it is null. */
    private int integer(JsonNode node, String field, String at, int min, Integer fallback) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() && fallback != null) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < min) {
            problem(
                    at + "." + field,
                    "must be an integer of at least " + min + ", was " + (value.isMissingNode() ? "missing" : value));
            return Math.max(min, 0);
        }
        return value.asInt();
    }

    private String quantity(JsonNode node, String field, String at) {
        JsonNode value = node.path(field);
        if (!value.isValueNode()
                || value.isNull()
                || !QUANTITY.matcher(value.asText()).matches()) {
            problem(
                    at + "." + field,
                    "must be a Kubernetes quantity such as \"192\", \"500m\" or \"2Ti\", was "
                            + (value.isMissingNode() ? "missing" : value));
            return "0";
        }
        return value.asText();
    }

    void unknownFields(JsonNode node, Set<String> known, String prefix) {
        node.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                problem(
                        prefix + f,
                        "is not a known field; known: "
                                + known.stream().sorted().toList());
            }
        });
    }

    int problemCount() {
        return problems.size();
    }

    void problem(String field, String message) {
        problems.add(new ProfileProblem(origin, cluster, field, message));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
