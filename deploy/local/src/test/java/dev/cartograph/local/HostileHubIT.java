package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.testing.Eventually;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hub full of broken and hostile objects (deploy/local/examples/hostile: absurd, negative and
 * non-numeric quantities, negative replicas, no spec, a million pods, and a Karta whose jq never
 * ends): the broker stays up, each of them fails alone with a reason naming what is wrong, and an
 * ordinary gang submitted after them is placed and runs.
 */
@Timeout(240)
class HostileHubIT {
    static final Path HOSTILE = Path.of("examples", "hostile");

    @TempDir
    Path dir;

    @Test
    void everyHostileObjectFailsAloneWithItsReasonAndTheGangAfterThemRuns() throws Exception {
        try (LocalFleet fleet = LocalFleet.start(
                FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(Duration.ofMinutes(5)))) {
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            create(fleet, HOSTILE.resolve("karta.yaml"));
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> fleet.broker().definitions().all().stream()
                            .anyMatch(d -> d.kind().kind().equals("XGBoostJob")
                                    && d.origin().equals("cluster")),
                    () -> "the hostile Karta is read");
            List<HasMetadata> hostile = create(fleet, HOSTILE.resolve("objects.yaml"));
            GenericKubernetesResource gang = (GenericKubernetesResource)
                    create(fleet, Path.of("examples", "pytorchjob.yaml")).get(0);

            // by hand, what each one must say (the field or the budget it breaks)
            Map<String, String> why = Map.of(
                    "overflow-gpus", "nvidia.com/gpu",
                    "negative-cpu", "cpu",
                    "memory-lots", "memory",
                    "negative-replicas", "replicas",
                    "no-spec", "spec",
                    "a-million-pods", "too many pods to plan",
                    "runaway-definition", "budget");
            Eventually.asserted(Duration.ofSeconds(90), () -> {
                for (HasMetadata h : hostile) {
                    Map<String, String> annotations =
                            fresh(fleet, h).getMetadata().getAnnotations();
                    Map<String, String> labels = fresh(fleet, h).getMetadata().getLabels();
                    assertThat(labels).as(h.getMetadata().getName()).containsEntry("cartograph.dev/phase", "Failed");
                    assertThat(annotations.get("cartograph.dev/reason"))
                            .as(h.getMetadata().getName())
                            .containsIgnoringCase(why.get(h.getMetadata().getName()));
                }
                assertThat(fresh(fleet, gang).getMetadata().getLabels())
                        .containsEntry("cartograph.dev/cluster", "gpu-east")
                        .containsEntry("cartograph.dev/phase", "Running");
            });
            assertThat(fleet.broker().running()).isTrue();
            assertThat(fleet.broker().view().active()).isTrue();
            System.out.printf(
                    "hostile hub: %d objects failed with their reasons, quarantined %d, the ordinary gang runs%n",
                    hostile.size(), fleet.broker().view().quarantined());
        }
    }

    private static List<HasMetadata> create(LocalFleet fleet, Path file) throws Exception {
        List<HasMetadata> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (HasMetadata o : fleet.hub().client().load(in).items()) {
                out.add(fleet.hub().client().resource(o).create());
            }
        }
        return out;
    }

    private static HasMetadata fresh(LocalFleet fleet, HasMetadata o) {
        HasMetadata now = fleet.hub().client().resource(o).get();
        assertThat(now).as(o.getMetadata().getName()).isNotNull();
        if (now.getMetadata().getAnnotations() == null) {
            now.getMetadata().setAnnotations(Map.of());
        }
        if (now.getMetadata().getLabels() == null) {
            now.getMetadata().setLabels(Map.of());
        }
        return now;
    }
}
