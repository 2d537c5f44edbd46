package dev.cartograph.broker.hub;

import dev.cartograph.broker.access.Authentication;
import dev.cartograph.broker.access.Authenticator;
import dev.cartograph.broker.access.Authorizer;
import dev.cartograph.broker.access.BearerToken;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Question;
import dev.cartograph.broker.access.Unavailable;
import dev.cartograph.broker.access.Verdict;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatus;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The hub as the REST API's identity source and authorizer: a TokenReview
 * ({@code authentication.k8s.io/v1}) says whose a bearer token is, a SubjectAccessReview
 * ({@code authorization.k8s.io/v1}) whether that user may do what a {@link Question} asks, by the hub's
 * own RBAC (or whatever authorizer the hub runs). Any failure to ask is {@link Unavailable}, never an
 * allow. Needs {@code create} on {@code tokenreviews} and {@code subjectaccessreviews} on the hub.
 * Thread-safe (the client is).
 */
public final class HubAccess implements Authenticator, Authorizer {
    private final KubernetesClient client;

    /** @param client a hub client that fails fast (no retries, short timeouts): a caller is waiting */
    public HubAccess(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Authentication authenticate(BearerToken token) {
        TokenReview review;
        try {
            review = client.authentication()
                    .v1()
                    .tokenReviews()
                    .create(new TokenReviewBuilder()
                            .withNewSpec()
                            .withToken(token.reveal())
                            .endSpec()
                            .build());
        } catch (KubernetesClientException e) {
            return new Unavailable("the hub at " + client.getMasterUrl() + " could not review the token: "
                    + failure(e, "tokenreviews.authentication.k8s.io"));
        } catch (RuntimeException e) {
            return new Unavailable("the hub at " + client.getMasterUrl() + " could not review the token: " + e);
        }
        TokenReviewStatus status = review == null ? null : review.getStatus();
        if (status == null || !Boolean.TRUE.equals(status.getAuthenticated())) {
            String error = status == null || status.getError() == null ? "" : status.getError();
            return new Authentication.Rejected(
                    "the hub does not accept this token" + (error.isBlank() ? "" : ": " + error));
        }
        UserInfo user = status.getUser();
        if (user == null || user.getUsername() == null || user.getUsername().isBlank()) {
            return new Authentication.Rejected("the hub accepted the token but named no user");
        }
        return new Authentication.Authenticated(new Caller(
                user.getUsername(),
                user.getUid(),
                Objects.requireNonNullElse(user.getGroups(), List.of()),
                Objects.requireNonNullElse(user.getExtra(), Map.of())));
    }

    @Override
    public Verdict authorize(Caller caller, Question question) {
        SubjectAccessReview review;
        try {
            review = client.authorization()
                    .v1()
                    .subjectAccessReview()
                    .create(new SubjectAccessReviewBuilder()
                            .withNewSpec()
                            .withUser(caller.user())
                            .withUid(caller.uid().isEmpty() ? null : caller.uid())
                            .withGroups(caller.groups())
                            .withExtra(caller.extra().isEmpty() ? null : caller.extra())
                            .withNewResourceAttributes()
                            .withVerb(question.verb())
                            .withGroup(question.group())
                            .withResource(question.resource())
                            .withNamespace(question.namespace())
                            .endResourceAttributes()
                            .endSpec()
                            .build());
        } catch (KubernetesClientException e) {
            return new Unavailable("the hub at " + client.getMasterUrl() + " could not say whether "
                    + caller.user() + " may " + question + ": "
                    + failure(e, "subjectaccessreviews.authorization.k8s.io"));
        } catch (RuntimeException e) {
            return new Unavailable("the hub at " + client.getMasterUrl() + " could not say whether " + caller.user()
                    + " may " + question + ": " + e);
        }
        SubjectAccessReviewStatus status = review == null ? null : review.getStatus();
        if (status == null) {
            return new Unavailable("the hub answered a SubjectAccessReview without a status");
        }
        if (Boolean.TRUE.equals(status.getAllowed()) && !Boolean.TRUE.equals(status.getDenied())) {
            return Verdict.ALLOWED;
        }
        String reason = status.getReason() == null ? "" : status.getReason();
        if (status.getEvaluationError() != null && !status.getEvaluationError().isBlank()) {
            reason = (reason.isBlank() ? "" : reason + "; ") + status.getEvaluationError();
        }
        return new Verdict.Denied(question, reason);
    }

    private static String failure(KubernetesClientException e, String resource) {
        if (e.getCode() == 401 || e.getCode() == 403) {
            return "the broker's own hub credentials may not create " + resource + " (HTTP " + e.getCode()
                    + "; see docs/api-access.md for the ClusterRole)";
        }
        return e.getCode() > 0 && e.getStatus() != null
                ? "HTTP " + e.getCode() + " " + e.getStatus().getMessage()
                : String.valueOf(e.getMessage());
    }
}
