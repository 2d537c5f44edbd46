package dev.cartograph.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.PlacementRecord;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broker end to end against a real Kafka broker, a hub and members as fabric8 mock API servers
 * and real agents: submit → placed on the one cluster where the gang fits → applied there → status
 * mirrored → delete cleans up.
 */
@Timeout(240)
class BrokerIT {
    static LocalKafka kafka;
    Federation fed;

    @BeforeAll
    static void kafka() throws Exception {
        Path data = Files.createTempDirectory("broker-it-kafka");
        kafka = LocalKafka.start(data);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    @AfterEach
    void close() {
        if (fed != null) {
            fed.close();
        }
    }

    @Test
    void aGangLandsWhereAllItsPodsFitIsMirroredAndDeletedEverywhere() throws Exception {
        // west: 12 free GPUs but 3 per node (fragmented); east: two whole free nodes. 2 pods x 4 GPUs fit only on east.
        fed = new Federation(kafka).member("west", "NVIDIA-H100-80GB-HBM3", 4, 5, 5, 5, 5).member("east", "NVIDIA-H100-80GB-HBM3", 2);
        BrokerRuntime broker = fed.startBroker("broker-a", true);
        Eventually.until(Duration.ofSeconds(60), () -> broker.view().active() && broker.view().fleet().clusters().size() == 2);

        GenericKubernetesResource submitted = fed.submitPyTorchJob("ft", 1, 4, "");
        String uid = submitted.getMetadata().getUid();

        Eventually.asserted(Duration.ofSeconds(30), () -> assertThat(fed.copies("east", Federation.PYTORCHJOBS)).hasSize(1));
        GenericKubernetesResource copy = fed.copies("east", Federation.PYTORCHJOBS).get(0);
        assertThat(copy.getMetadata().getLabels()).containsEntry("cartograph.dev/placement-id", uid)
                .doesNotContainKey("cartograph.dev/federate").doesNotContainKey("cartograph.dev/cluster");
        assertThat(fed.copies("west", Federation.PYTORCHJOBS)).isEmpty();
        Eventually.asserted(Duration.ofSeconds(20), () -> {
            GenericKubernetesResource onHub = hubObject("ft");
            assertThat(onHub.getMetadata().getLabels()).containsEntry("cartograph.dev/cluster", "east");
            assertThat(onHub.getMetadata().getFinalizers()).contains("cartograph.dev/placement");
            assertThat(reasons(uid)).contains("Placed", "Forwarded");
        });
        BrokerView view = broker.view();
        assertThat(view.placements().get(uid).cluster()).contains("east");
        assertThat(view.placements().get(uid).state()).isEqualTo(PlacementRecord.State.APPLIED);
        assertThat(view.decisions().get(uid).clusters()).anySatisfy(v -> {
            assertThat(v.cluster()).isEqualTo("west");
            assertThat(v.fits()).isFalse();
            assertThat(v.reason()).contains("largest free block 3");
        });

        // the member's controller reports Running: the hub object shows the member's status and phase
        copy.setAdditionalProperty("status", Map.of("conditions", List.of(
                Map.of("type", "Created", "status", "True"), Map.of("type", "Running", "status", "True"))));
        fed.members.get("east").genericKubernetesResources(Federation.PYTORCHJOBS).inNamespace("ml").resource(copy).updateStatus();
        Eventually.asserted(Duration.ofSeconds(30), () -> {
            GenericKubernetesResource onHub = hubObject("ft");
            assertThat(onHub.getMetadata().getLabels()).containsEntry("cartograph.dev/phase", "Running");
            assertThat(String.valueOf(onHub.getAdditionalProperties().get("status"))).contains("Running");
        });

        // delete on the hub: the member copy goes, then the hub object (finalizer released)
        fed.hub.genericKubernetesResources(Federation.PYTORCHJOBS).inNamespace("ml").withName("ft").delete();
        Eventually.asserted(Duration.ofSeconds(30), () -> {
            assertThat(fed.copies("east", Federation.PYTORCHJOBS)).isEmpty();
            assertThat(fed.hub.genericKubernetesResources(Federation.PYTORCHJOBS).inNamespace("ml").withName("ft").get()).isNull();
            assertThat(broker.view().placements()).doesNotContainKey(uid);
        });
    }

    GenericKubernetesResource hubObject(String name) {
        return fed.hub.genericKubernetesResources(Federation.PYTORCHJOBS).inNamespace("ml").withName(name).get();
    }

    List<String> reasons(String uid) {
        return fed.hub.v1().events().inNamespace("ml").list().getItems().stream()
                .filter(e -> uid.equals(e.getInvolvedObject().getUid())).map(Event::getReason).toList();
    }
}
