package dev.cartograph.mock.rbac;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Authenticates a request by its bearer token and authorizes it against the {@link Rbac} policy; remembers every
 * denial (for tests to assert on). Thread-safe.
 */
public final class RbacGate {
    private static final String BEARER = "Bearer ";

    private final Rbac rbac;
    private final List<Denial> denials = new CopyOnWriteArrayList<>();

    public RbacGate(Rbac rbac) {
        this.rbac = rbac;
    }

    /**
     * The denial of {@code method uri} with the {@code Authorization} header {@code authorization} (null when
     * absent); empty when allowed.
     */
    public Optional<Denial> check(String method, String uri, String authorization) {
        return check(RequestAttributes.of(method, uri), authorization);
    }

    /** The denial of {@code request} with the {@code Authorization} header {@code authorization}; empty when allowed. */
    public Optional<Denial> check(RequestAttributes request, String authorization) {
        if (rbac.policy().isEmpty()) {
            return Optional.empty();
        }
        Optional<String> user = userOf(authorization);
        if (user.isEmpty()) {
            return Optional.empty(); // the server's own client (see Rbac)
        }
        if (rbac.policy().get().allows(Subject.user(user.get()), request)) {
            return Optional.empty();
        }
        Denial denial = new Denial(user.get(), request);
        denials.add(denial);
        return Optional.of(denial);
    }

    /**
     * The user whose bearer token {@code authorization} carries, when the server knows the token (null or another
     * scheme: empty).
     */
    public Optional<String> userOf(String authorization) {
        if (authorization == null
                || !authorization.startsWith(BEARER)
                || rbac.users().isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(
                rbac.users().get(authorization.substring(BEARER.length()).trim()));
    }

    /** Every request denied so far, oldest first. */
    public List<Denial> denials() {
        return List.copyOf(denials);
    }
}
