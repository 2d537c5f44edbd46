package dev.cartograph.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.interpreter.podsecurity.Level;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code pod-security-level} and {@code privileged-namespaces} as the broker binds them: validated at start. */
@Timeout(10)
class PodSecuritySettingsTest {

    @Test
    void baselineOrRestrictedEverywhereAndPrivilegedOnlyWhereListed() {
        var policy = BrokerFactory.podSecurity("restricted", List.of("gpu-operator"));
        assertThat(policy.levelFor("ml")).isEqualTo(Level.RESTRICTED);
        assertThat(policy.levelFor("gpu-operator")).isEqualTo(Level.PRIVILEGED);
        assertThat(BrokerFactory.podSecurity("baseline", null).levelFor("ml")).isEqualTo(Level.BASELINE);
    }

    @Test
    void privilegedEverywhereOrAnUnknownLevelOrABadNamespaceStopsTheBrokerWithTheKeyNamed() {
        assertThatThrownBy(() -> BrokerFactory.podSecurity("privileged", List.of()))
                .hasMessage("cartograph.broker.pod-security-level / privileged-namespaces: pod security level must be"
                        + " baseline or restricted, not 'privileged' (privileged is granted per namespace, by listing"
                        + " privileged namespaces)");
        assertThatThrownBy(() -> BrokerFactory.podSecurity("strict", List.of())).hasMessageContaining("not 'strict'");
        assertThatThrownBy(() -> BrokerFactory.podSecurity("baseline", List.of("ML_Team")))
                .hasMessageStartingWith("cartograph.broker.pod-security-level / privileged-namespaces: privileged"
                        + " namespace 'ML_Team' is not a namespace name");
    }
}
