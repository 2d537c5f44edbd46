package dev.cartograph.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class TopologyLevelsTest {
    @Test
    void readsACommaSeparatedListWidestFirst() {
        assertThat(TopologyLevels.of(List.of("topology.kubernetes.io/zone, cartograph.dev/rack,,nvidia.com/gpu.clique"))
                        .keys())
                .containsExactly("topology.kubernetes.io/zone", "cartograph.dev/rack", "nvidia.com/gpu.clique");
        assertThat(TopologyLevels.of(List.of("rack", "example.com/pod")).keys())
                .containsExactly("rack", "example.com/pod");
    }

    @Test
    void refusesWhatIsNotALabelKeyNamingEveryProblem() {
        assertThatThrownBy(() -> TopologyLevels.of(List.of("Zone Name,cartograph.dev/rack,cartograph.dev/rack,/x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'Zone Name' is not a label key (prefix/name, e.g. topology.kubernetes.io/zone); "
                        + "cartograph.dev/rack is named twice; "
                        + "'/x' is not a label key (prefix/name, e.g. topology.kubernetes.io/zone)");
        assertThatThrownBy(() -> TopologyLevels.of(List.of(" , "))).hasMessage("at least one level is needed");
        assertThatThrownBy(() -> TopologyLevels.of(List.of("Example.com/zone")))
                .hasMessageContaining("'Example.com/zone' is not a label key");
    }
}
