package dev.cartograph.broker.access;

import java.time.Clock;
import java.time.Duration;

/**
 * The REST API's one way to ask who a caller is and what it may do: an {@link Authenticator} and an
 * {@link Authorizer} behind short-lived caches. Authentications are keyed by the token's SHA-256 (never
 * the token), verdicts by caller and question. Only definite answers are kept: {@link Unavailable} is
 * asked again next time, and is never an allow. Thread-safe.
 */
public final class AccessControl {
    private record VerdictKey(Caller caller, Question question) {}

    private final Authenticator authenticator;
    private final Authorizer authorizer;
    private final String description;
    private final DecisionCache<String, Authentication> authentications;
    private final DecisionCache<VerdictKey, Verdict> verdicts;

    /**
     * @param description what the identity source is, for logs ({@code the hub's TokenReview}, {@code the
     *     static token file …})
     */
    public AccessControl(
            Authenticator authenticator,
            Authorizer authorizer,
            String description,
            Clock clock,
            Duration ttl,
            int maxEntries) {
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.description = description;
        this.authentications = new DecisionCache<>(clock, ttl, maxEntries);
        this.verdicts = new DecisionCache<>(clock, ttl, maxEntries);
    }

    public Authentication authenticate(BearerToken token) {
        return authentications.get(
                token.hash(), h -> authenticator.authenticate(token), a -> !(a instanceof Unavailable));
    }

    public Verdict authorize(Caller caller, Question question) {
        return verdicts.get(
                new VerdictKey(caller, question),
                k -> authorizer.authorize(caller, question),
                v -> !(v instanceof Unavailable));
    }

    @Override
    public String toString() {
        return description;
    }
}
