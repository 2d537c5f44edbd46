package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.interpreter.podsecurity.Level;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the agent never writes, validated when its settings are bound. */
@Timeout(10)
class AdmissionSettingsTest {

    @Test
    void theAgentsOwnAndTheSystemNamespacesAreAlwaysDenied() {
        assertThat(AgentSettings.Admission.DEFAULT.deniedNamespaces())
                .containsExactlyInAnyOrder("kube-system", "kube-public", "kube-node-lease", "cartograph-system");
        assertThat(new AgentSettings.Admission(PodSecurityPolicy.DEFAULT, "carto", Set.of("monitoring"))
                        .deniedNamespaces())
                .containsExactlyInAnyOrder("kube-system", "kube-public", "kube-node-lease", "carto", "monitoring");
        assertThat(AgentSettings.Admission.DEFAULT.podSecurity().levelFor("ml")).isEqualTo(Level.BASELINE);
    }

    @Test
    void aDeniedNamespaceCannotBeMadePrivilegedAndNamesMustBeNamespaces() {
        assertThatThrownBy(() -> new AgentSettings.Admission(
                        new PodSecurityPolicy(Level.BASELINE, Set.of("kube-system", "ml")),
                        "cartograph-system",
                        Set.of()))
                .hasMessage("privileged namespaces [kube-system] are the agent's own or system namespaces, which no"
                        + " command may write into");
        assertThatThrownBy(() -> new AgentSettings.Admission(PodSecurityPolicy.DEFAULT, "Cartograph", Set.of()))
                .hasMessage("'Cartograph' is not a namespace name (lower case, digits, '-')");
    }
}
