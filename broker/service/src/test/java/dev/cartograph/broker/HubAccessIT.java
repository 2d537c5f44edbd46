package dev.cartograph.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.access.Authentication;
import dev.cartograph.broker.access.BearerToken;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Question;
import dev.cartograph.broker.access.Unavailable;
import dev.cartograph.broker.access.Verdict;
import dev.cartograph.broker.hub.HubAccess;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hub adapter's reading of TokenReview and SubjectAccessReview answers, and of a hub that does not answer. */
@Timeout(60)
class HubAccessIT {
    final HubReviews reviews = new HubReviews()
            .user("token-alice", "alice", "team-a", "system:authenticated")
            .allow("alice", "get", "kubeflow.org", "pytorchjobs", "team-a");
    final KubernetesMockServer server = Federation.server(reviews);
    final KubernetesClient client = server.createClient();
    final HubAccess hub = new HubAccess(client);
    static final Caller ALICE = new Caller("alice", "", List.of("team-a", "system:authenticated"));

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    @Test
    void aTokenTheHubAuthenticatesIsItsUserWithGroups() {
        assertThat(hub.authenticate(new BearerToken("token-alice"))).isEqualTo(new Authentication.Authenticated(ALICE));
        assertThat(hub.authenticate(new BearerToken("token-mallory")))
                .isEqualTo(new Authentication.Rejected("the hub does not accept this token: invalid bearer token"));
    }

    @Test
    void theHubsRbacAllowsOrDeniesTheQuestionAsked() {
        assertThat(hub.authorize(ALICE, new Question("get", "kubeflow.org", "pytorchjobs", "team-a")))
                .isEqualTo(Verdict.ALLOWED);
        Question other = new Question("get", "kubeflow.org", "pytorchjobs", "team-b");
        assertThat(hub.authorize(ALICE, other)).isEqualTo(new Verdict.Denied(other, ""));
        Question create = new Question("create", "kubeflow.org", "pytorchjobs", "team-a");
        assertThat(hub.authorize(ALICE, create)).isEqualTo(new Verdict.Denied(create, ""));
    }

    @Test
    void aHubThatRefusesTheBrokersOwnReviewsIsUnavailableNamingTheMissingPermission() {
        reviews.brokerForbidden = true;
        assertThat(hub.authenticate(new BearerToken("token-alice")))
                .isInstanceOfSatisfying(
                        Unavailable.class,
                        u -> assertThat(u.reason())
                                .contains(
                                        "the broker's own hub credentials may not create tokenreviews.authentication.k8s.io"));
        assertThat(hub.authorize(ALICE, new Question("get", "kubeflow.org", "pytorchjobs", "team-a")))
                .isInstanceOfSatisfying(
                        Unavailable.class,
                        u -> assertThat(u.reason())
                                .contains("may not create subjectaccessreviews.authorization.k8s.io"));
    }

    @Test
    void aHubNobodyListensOnIsUnavailableNotAnAllow() throws Exception {
        String url;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            url = "http://127.0.0.1:" + closed.getLocalPort(); // nothing listens there once closed
        }
        try (KubernetesClient gone = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl(url)
                        .withRequestRetryBackoffLimit(0)
                        .withConnectionTimeout(1_000)
                        .withRequestTimeout(2_000)
                        .build())
                .build()) {
            HubAccess down = new HubAccess(gone);
            assertThat(down.authenticate(new BearerToken("token-alice")))
                    .isInstanceOfSatisfying(
                            Unavailable.class,
                            u -> assertThat(u.reason())
                                    .startsWith("the hub at " + url + "/ could not review the token"));
            assertThat(down.authorize(ALICE, new Question("get", "kubeflow.org", "pytorchjobs", "team-a")))
                    .isInstanceOf(Unavailable.class);
        }
    }
}
