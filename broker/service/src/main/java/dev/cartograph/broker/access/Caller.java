package dev.cartograph.broker.access;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who called the REST API, as the identity source (the hub's TokenReview, or the static token file)
 * says. Immutable.
 *
 * @param user   the user name, e.g. {@code alice} or {@code system:serviceaccount:team-a:ci}
 * @param uid    the user's uid where the source gives one, else empty
 * @param groups the groups the user is in, in the source's order
 * @param extra  further attributes the identity source gave (passed on to the authorizer as they came)
 */
public record Caller(String user, String uid, List<String> groups, Map<String, List<String>> extra) {
    public Caller {
        Objects.requireNonNull(user, "user");
        if (user.isBlank()) {
            throw new IllegalArgumentException("a caller needs a user name");
        }
        uid = uid == null ? "" : uid;
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }

    public Caller(String user, String uid, List<String> groups) {
        this(user, uid, groups, Map.of());
    }
}
