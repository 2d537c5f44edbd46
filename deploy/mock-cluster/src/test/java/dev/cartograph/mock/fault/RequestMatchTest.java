package dev.cartograph.mock.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.mock.rbac.RequestAttributes;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Requests as the agent, the broker and kubectl send them; which rules they meet, decided by hand. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestMatchTest {
    private static final String LEASE = "/apis/coordination.k8s.io/v1/namespaces/cartograph-system/leases/agent";

    @Test
    void leaseRenewalsAreUpdatesOfLeasesAndNothingElse() {
        RequestMatch renewals = RequestMatch.verbs("update").resource("coordination.k8s.io", "leases");

        assertThat(renewals.matches(RequestAttributes.of("PUT", LEASE))).isTrue();
        assertThat(renewals.matches(RequestAttributes.of("GET", LEASE))).isFalse();
        assertThat(renewals.matches(RequestAttributes.of("PUT", "/api/v1/namespaces/ml/configmaps/agent")))
                .isFalse();
        assertThat(renewals.namespace("elsewhere").matches(RequestAttributes.of("PUT", LEASE)))
                .isFalse();
        assertThat(renewals.namespace("cartograph-system").name("agent").matches(RequestAttributes.of("PUT", LEASE)))
                .isTrue();
    }

    @Test
    void discoveryIsTheLegacyDocumentsAndNoResource() {
        RequestMatch discovery = RequestMatch.discovery();

        assertThat(discovery.matches(RequestAttributes.of("GET", "/api"))).isTrue();
        assertThat(discovery.matches(RequestAttributes.of("GET", "/api/v1"))).isTrue();
        assertThat(discovery.matches(RequestAttributes.of("GET", "/apis"))).isTrue();
        assertThat(discovery.matches(RequestAttributes.of("GET", "/apis/kubeflow.org/v1")))
                .isTrue();
        assertThat(discovery.matches(RequestAttributes.of("GET", "/api/v1/namespaces")))
                .isFalse();
        assertThat(discovery.matches(RequestAttributes.of("GET", "/apis/kubeflow.org/v1/pytorchjobs")))
                .isFalse();
        assertThat(discovery.matches(RequestAttributes.of("GET", "/version"))).isFalse();
    }

    @Test
    void subresourcesAreNamedWithTheirResourceAndAPathPatternMatchesTheWholePath() {
        RequestAttributes statusPatch =
                RequestAttributes.of("PATCH", "/apis/kubeflow.org/v1/namespaces/ml/pytorchjobs/train/status");

        assertThat(RequestMatch.verbs("patch")
                        .resource("kubeflow.org", "pytorchjobs")
                        .matches(statusPatch))
                .isFalse();
        assertThat(RequestMatch.verbs("patch")
                        .resource("kubeflow.org", "pytorchjobs/status")
                        .matches(statusPatch))
                .isTrue();
        assertThat(RequestMatch.any().path("/apis/kubeflow\\.org/.*/status").matches(statusPatch))
                .isTrue();
        assertThat(RequestMatch.any().path("/apis/kubeflow\\.org").matches(statusPatch))
                .isFalse();
    }

    @Test
    void aWatchIsAWatchWhateverItsTransportAndAResourceRuleNeverMatchesANonResourcePath() {
        RequestMatch watches = RequestMatch.verbs("watch").resource("", "configmaps");

        assertThat(watches.matches(RequestAttributes.of("GET", "/api/v1/namespaces/ml/configmaps?watch=true")))
                .isTrue();
        assertThat(watches.matches(RequestAttributes.of("GET", "/api/v1/namespaces/ml/configmaps")))
                .isFalse();
        assertThat(RequestMatch.any().namespace("").matches(RequestAttributes.of("GET", "/healthz")))
                .isFalse();
        assertThat(RequestMatch.any().matches(RequestAttributes.of("GET", "/healthz")))
                .isTrue();
    }

    @Test
    void anUnknownVerbIsATypoNotARule() {
        assertThatThrownBy(() -> RequestMatch.verbs("updates")).hasMessageContaining("unknown verbs [updates]");
    }
}
