package dev.cartograph.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hub's CRUD mock that also answers TokenReviews and SubjectAccessReviews the way a real API server
 * does (201 with the review and its status; authenticated or not, allowed or not with RBAC's reason),
 * from tokens and rules the test sets; {@link #down} makes both answer 503 as an overloaded or
 * partitioned API server would. Everything else is fabric8's CRUD mode. Thread-safe.
 */
final class HubReviews extends KubernetesCrudDispatcher {
    static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

    private record User(String name, List<String> groups) {}

    private final Map<String, User> tokens = new ConcurrentHashMap<>();
    /** {@code user verb group resource namespace}; namespace {@code *} is every namespace. */
    private final Set<String> rules = ConcurrentHashMap.newKeySet();

    volatile boolean down;
    /** The hub refuses the broker's own reviews (its ClusterRole lacks them): 403 as RBAC would answer. */
    volatile boolean brokerForbidden;

    final AtomicInteger tokenReviews = new AtomicInteger();
    final AtomicInteger accessReviews = new AtomicInteger();

    HubReviews() {
        super(List.of());
    }

    HubReviews user(String token, String name, String... groups) {
        tokens.put(token, new User(name, List.of(groups)));
        return this;
    }

    HubReviews allow(String user, String verb, String group, String resource, String namespace) {
        rules.add(String.join(" ", user, verb, group, resource, namespace));
        return this;
    }

    @Override
    public MockResponse handleCreate(RecordedRequest request) {
        String path = request.getPath().split("\\?")[0];
        if (!path.equals(TOKEN_REVIEWS) && !path.equals(ACCESS_REVIEWS)) {
            return super.handleCreate(request);
        }
        if (down) {
            return new MockResponse()
                    .setResponseCode(503)
                    .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                            + "\"message\":\"the server is currently unable to handle the request\","
                            + "\"reason\":\"ServiceUnavailable\",\"code\":503}");
        }
        if (brokerForbidden) {
            String resource = path.equals(TOKEN_REVIEWS)
                    ? "tokenreviews\" in API group \"authentication.k8s.io"
                    : "subjectaccessreviews\" in API group \"authorization.k8s.io";
            ObjectNode status = Documents.json()
                    .createObjectNode()
                    .put("kind", "Status")
                    .put("apiVersion", "v1")
                    .put("status", "Failure")
                    .put(
                            "message",
                            "User \"system:serviceaccount:cartograph:broker\" cannot create resource \"" + resource
                                    + "\" at the cluster scope")
                    .put("reason", "Forbidden")
                    .put("code", 403);
            return new MockResponse().setResponseCode(403).setBody(status.toString());
        }
        ObjectNode review;
        try {
            review = (ObjectNode) Documents.json().readTree(request.getUtf8Body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (path.equals(TOKEN_REVIEWS)) {
            tokenReviews.incrementAndGet();
            tokenReview(review);
        } else {
            accessReviews.incrementAndGet();
            accessReview(review);
        }
        return new MockResponse().setResponseCode(201).setBody(review.toString());
    }

    private void tokenReview(ObjectNode review) {
        User user = tokens.get(review.path("spec").path("token").asText());
        ObjectNode status = review.putObject("status");
        if (user == null) {
            status.put("authenticated", false).put("error", "invalid bearer token");
            return;
        }
        ObjectNode u = status.put("authenticated", true).putObject("user").put("username", user.name());
        user.groups().forEach(u.putArray("groups")::add);
    }

    private void accessReview(ObjectNode review) {
        JsonNode spec = review.path("spec");
        JsonNode a = spec.path("resourceAttributes");
        String user = spec.path("user").asText();
        String rule = String.join(
                " ",
                user,
                a.path("verb").asText(),
                a.path("group").asText(),
                a.path("resource").asText());
        boolean allowed = rules.contains(rule + " " + a.path("namespace").asText()) || rules.contains(rule + " *");
        ObjectNode status = review.putObject("status").put("allowed", allowed);
        if (allowed) {
            status.put("reason", "RBAC: allowed by RoleBinding \"" + user + "\"");
        }
    }
}
