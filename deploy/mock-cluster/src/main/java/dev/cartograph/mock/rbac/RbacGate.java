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
        if (rbac.policy().isEmpty() || authorization == null || !authorization.startsWith(BEARER)) {
            return Optional.empty();
        }
        String user = rbac.users().get(authorization.substring(BEARER.length()).trim());
        if (user == null) {
            return Optional.empty(); // the server's own client (see Rbac)
        }
        RequestAttributes request = RequestAttributes.of(method, uri);
        if (rbac.policy().get().allows(Subject.user(user), request)) {
            return Optional.empty();
        }
        Denial denial = new Denial(user, request);
        denials.add(denial);
        return Optional.of(denial);
    }

    /** Every request denied so far, oldest first. */
    public List<Denial> denials() {
        return List.copyOf(denials);
    }
}
