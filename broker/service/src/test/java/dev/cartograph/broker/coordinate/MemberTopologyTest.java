package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.placement.GangTopology;
import dev.cartograph.protocol.PlacementRecord.Pin;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which pin a member gets for a gang placed in clique {@code c7}, by what its cluster labels say it runs. */
class MemberTopologyTest {
    static final String CLIQUE = "nvidia.com/gpu.clique";
    static final Map<String, String> DOMAIN = Map.of(CLIQUE, "c7");

    @Test
    void byDefaultThePodsOfTheBoundPodSetsAreKeptThereByNodeSelector() {
        GangTopology workers = GangTopology.required(CLIQUE).of(Set.of("worker"));
        assertThat(MemberTopology.of(Map.of("region", "us"), workers, DOMAIN))
                .isEqualTo(new Pin(DOMAIN, Set.of("worker")));
        assertThat(MemberTopology.of(Map.of(), GangTopology.NONE, Map.of())).isEqualTo(Pin.NONE);
        assertThat(MemberTopology.of(Map.of(), GangTopology.preferred(CLIQUE), Map.of()))
                .isEqualTo(Pin.NONE);
    }

    @Test
    void kueueAndKaiGetTheirOwnAnnotationsAndKaiWithoutATopologyNameIsPinned() {
        assertThat(MemberTopology.of(
                        Map.of("cartograph.dev/topology-scheduler", "kueue"), GangTopology.preferred(CLIQUE), DOMAIN))
                .isEqualTo(new Pin(
                        Map.of(), Set.of(), Map.of("kueue.x-k8s.io/podset-preferred-topology", CLIQUE), Map.of()));
        assertThat(MemberTopology.of(
                        Map.of("cartograph.dev/topology-scheduler", "kai", "cartograph.dev/kai-topology", "racks"),
                        GangTopology.preferred(CLIQUE),
                        DOMAIN))
                .isEqualTo(new Pin(
                        Map.of(),
                        Set.of(),
                        Map.of(),
                        Map.of(
                                "kai.scheduler/topology",
                                "racks",
                                "kai.scheduler/topology-preferred-placement",
                                CLIQUE)));
        assertThat(MemberTopology.of(
                        Map.of("cartograph.dev/topology-scheduler", "kai"), GangTopology.required(CLIQUE), DOMAIN))
                .isEqualTo(new Pin(DOMAIN, Set.of()));
    }
}
