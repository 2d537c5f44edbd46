package dev.cartograph.mock.crd;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Plural and short names of the catalog's custom resource kinds as their upstream CRDs spell
 * them. Plurals follow "lowercase + s" unless the table says otherwise; short names are only
 * those upstream declares. Keyed by {@code kind.group}. Immutable; thread-safe.
 */
final class CrdNames {
    private static final Map<String, String> IRREGULAR_PLURALS = Map.of("Milvus.milvus.io", "milvuses");

    private static final Map<String, List<String>> SHORT_NAMES = Map.of(
            "Job.batch.volcano.sh", List.of("vcjob", "vj"),
            "LeaderWorkerSet.leaderworkerset.x-k8s.io", List.of("lws"),
            "Service.serving.knative.dev", List.of("kservice", "ksvc"),
            "InferenceService.serving.kserve.io", List.of("isvc"),
            "SparkApplication.sparkoperator.k8s.io", List.of("sparkapp"));

    private static final Map<String, List<String>> CATEGORIES =
            Map.of("Service.serving.knative.dev", List.of("all", "knative", "serving"));

    private CrdNames() {}

    static String plural(String group, String kind) {
        String irregular = IRREGULAR_PLURALS.get(kind + "." + group);
        return irregular != null ? irregular : kind.toLowerCase(Locale.ROOT) + "s";
    }

    static String singular(String kind) {
        return kind.toLowerCase(Locale.ROOT);
    }

    static List<String> shortNames(String group, String kind) {
        return SHORT_NAMES.getOrDefault(kind + "." + group, List.of());
    }

    static List<String> categories(String group, String kind) {
        return CATEGORIES.getOrDefault(kind + "." + group, List.of());
    }
}
