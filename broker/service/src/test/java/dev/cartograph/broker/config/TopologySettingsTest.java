package dev.cartograph.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.fleet.TopologyLevels;
import io.micronaut.context.ApplicationContext;
import io.micronaut.core.type.Argument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code cartograph.topology.levels} as the broker binds it: a comma-separated list, validated at start. */
@Timeout(30)
class TopologySettingsTest {

    @Test
    void defaultsToZoneRackAndNvlinkClique() {
        assertThat(BrokerFactory.topologyLevels(List.of(TopologyProperties.DEFAULT_LEVELS))
                        .keys())
                .containsExactly("topology.kubernetes.io/zone", "cartograph.dev/rack", "nvidia.com/gpu.clique");
        assertThat(BrokerFactory.topologyLevels(List.of(TopologyProperties.DEFAULT_LEVELS)))
                .isEqualTo(TopologyLevels.DEFAULT);
    }

    @Test
    void aCommaSeparatedValueIsTheLevelsWidestFirst() {
        try (ApplicationContext ctx = ApplicationContext.builder()
                .properties(Map.of("cartograph.topology.levels", "topology.kubernetes.io/zone, example.com/row"))
                .build()) {
            ctx.getEnvironment().start();
            List<String> bound = ctx.getEnvironment()
                    .getProperty("cartograph.topology.levels", Argument.listOf(String.class))
                    .orElseThrow();
            assertThat(BrokerFactory.topologyLevels(bound).keys())
                    .containsExactly("topology.kubernetes.io/zone", "example.com/row");
        }
    }

    @Test
    void refusesWhatIsNotALabelKeyNamingTheSetting() {
        assertThatThrownBy(() -> BrokerFactory.topologyLevels(List.of("zone,zone")))
                .hasMessage("cartograph.topology.levels: zone is named twice");
        assertThatThrownBy(() -> BrokerFactory.topologyLevels(null))
                .hasMessage("cartograph.topology.levels: at least one level is needed");
    }
}
