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

/** {@code cartograph.broker.topology-levels} as the broker binds it: a comma-separated list, validated at start. */
@Timeout(30)
class TopologySettingsTest {

    @Test
    void defaultsToZoneRackAndNvlinkClique() {
        assertThat(BrokerFactory.topologyLevels(List.of(dev.cartograph.fleet.TopologyLevels.DEFAULT_TEXT))
                        .keys())
                .containsExactly("topology.kubernetes.io/zone", "cartograph.dev/rack", "nvidia.com/gpu.clique");
        assertThat(BrokerFactory.topologyLevels(List.of(dev.cartograph.fleet.TopologyLevels.DEFAULT_TEXT)))
                .isEqualTo(TopologyLevels.DEFAULT);
    }

    @Test
    void aCommaSeparatedValueIsTheLevelsWidestFirst() {
        try (ApplicationContext ctx = ApplicationContext.builder()
                .properties(Map.of("cartograph.broker.topology-levels", "topology.kubernetes.io/zone, example.com/row"))
                .build()) {
            ctx.getEnvironment().start();
            List<String> bound = ctx.getEnvironment()
                    .getProperty("cartograph.broker.topology-levels", Argument.listOf(String.class))
                    .orElseThrow();
            assertThat(BrokerFactory.topologyLevels(bound).keys())
                    .containsExactly("topology.kubernetes.io/zone", "example.com/row");
        }
    }

    @Test
    void refusesWhatIsNotALabelKeyNamingTheSetting() {
        assertThatThrownBy(() -> BrokerFactory.topologyLevels(List.of("zone,zone")))
                .hasMessage("cartograph.broker.topology-levels: zone is named twice");
        assertThatThrownBy(() -> BrokerFactory.topologyLevels(null))
                .hasMessage("cartograph.broker.topology-levels: at least one level is needed");
    }
}
