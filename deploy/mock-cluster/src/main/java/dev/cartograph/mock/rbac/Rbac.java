package dev.cartograph.mock.rbac;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether and how a mock API server enforces RBAC: the policy, and which bearer token is which user
 * ({@code system:serviceaccount:NS:NAME} for a service account). A request with no token or a token not in the
 * map is the server's own test client and is allowed everything — a convenience of the mock (a real API server
 * answers 401), so seeding, simulators and assertions keep working while the component under test is held to
 * its RBAC. Immutable; thread-safe.
 *
 * @param policy empty when RBAC is off
 */
public record Rbac(Optional<RbacPolicy> policy, Map<String, String> users) {
    /** RBAC off: every request is allowed. */
    public static final Rbac OFF = new Rbac(Optional.empty(), Map.of());

    public Rbac {
        Objects.requireNonNull(policy, "policy");
        users = Map.copyOf(users);
        users.forEach((token, user) -> {
            if (token.isBlank() || user.isBlank()) {
                throw new IllegalArgumentException("a bearer token and its user must not be blank");
            }
        });
    }

    /** Enforces {@code policy} on requests bearing one of {@code users}' tokens. */
    public static Rbac enforcing(RbacPolicy policy, Map<String, String> users) {
        return new Rbac(Optional.of(policy), users);
    }
}
