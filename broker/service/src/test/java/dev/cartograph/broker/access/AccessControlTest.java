package dev.cartograph.broker.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Caching of the identity source's and authorizer's answers: definite ones briefly, failures never. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class AccessControlTest {
    static final Caller ALICE = new Caller("alice", "", List.of("team-a"));
    static final Question GET_A = new Question("get", "kubeflow.org", "pytorchjobs", "team-a");
    static final Question GET_B = new Question("get", "kubeflow.org", "pytorchjobs", "team-b");

    final TestClock clock = new TestClock();
    final List<String> asked = new ArrayList<>();
    Authentication identity = new Authentication.Authenticated(ALICE);
    Verdict verdict = Verdict.ALLOWED;

    AccessControl access() {
        Authenticator authenticator = token -> {
            asked.add("token " + token.hash().substring(0, 6));
            return identity;
        };
        Authorizer authorizer = (caller, q) -> {
            asked.add(q.toString());
            return verdict;
        };
        return new AccessControl(authenticator, authorizer, "test", clock, Duration.ofSeconds(10), 100);
    }

    @Test
    void asksTheIdentitySourceOncePerTokenWithinTheTimeToLive() {
        AccessControl access = access();
        BearerToken token = new BearerToken("abc");
        assertThat(access.authenticate(token)).isEqualTo(new Authentication.Authenticated(ALICE));
        assertThat(access.authenticate(new BearerToken("abc"))).isEqualTo(new Authentication.Authenticated(ALICE));
        assertThat(asked).containsExactly("token ba7816"); // SHA-256("abc") starts ba7816
        clock.advance(Duration.ofSeconds(10));
        access.authenticate(token);
        assertThat(asked).hasSize(2);
    }

    @Test
    void aRejectedTokenIsKeptTooButAnUnavailableSourceIsAskedEveryTime() {
        AccessControl access = access();
        identity = new Authentication.Rejected("expired");
        access.authenticate(new BearerToken("old"));
        access.authenticate(new BearerToken("old"));
        assertThat(asked).hasSize(1);
        identity = new Unavailable("hub down");
        assertThat(access.authenticate(new BearerToken("new"))).isEqualTo(new Unavailable("hub down"));
        access.authenticate(new BearerToken("new"));
        assertThat(asked).hasSize(3);
        identity = new Authentication.Authenticated(ALICE); // the hub is back: the next call knows at once
        assertThat(access.authenticate(new BearerToken("new"))).isEqualTo(new Authentication.Authenticated(ALICE));
    }

    @Test
    void keepsAVerdictPerCallerAndQuestion() {
        AccessControl access = access();
        access.authorize(ALICE, GET_A);
        access.authorize(ALICE, GET_A);
        verdict = new Verdict.Denied(GET_B, "RBAC: no rule");
        assertThat(access.authorize(ALICE, GET_B)).isEqualTo(new Verdict.Denied(GET_B, "RBAC: no rule"));
        access.authorize(new Caller("bob", "", List.of()), GET_A);
        assertThat(asked)
                .containsExactly(
                        "get pytorchjobs.kubeflow.org in namespace team-a",
                        "get pytorchjobs.kubeflow.org in namespace team-b",
                        "get pytorchjobs.kubeflow.org in namespace team-a");
    }

    @Test
    void neverKeepsAnUnavailableVerdict() {
        AccessControl access = access();
        verdict = new Unavailable("hub down");
        access.authorize(ALICE, GET_A);
        verdict = Verdict.ALLOWED;
        assertThat(access.authorize(ALICE, GET_A)).isEqualTo(Verdict.ALLOWED);
        assertThat(asked).hasSize(2);
    }

    @Test
    void aDenialNamesTheCallerVerbResourceAndNamespace() {
        assertThat(new Verdict.Denied(GET_B, "").message(ALICE))
                .isEqualTo("alice may not get pytorchjobs.kubeflow.org in namespace team-b");
        assertThat(new Verdict.Denied(new Question("create", "", "pods", "ml"), "no RBAC rule").message(ALICE))
                .isEqualTo("alice may not create pods in namespace ml (no RBAC rule)");
    }
}
