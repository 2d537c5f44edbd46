package dev.cartograph.mock.rbac;

import java.util.List;

/**
 * Who a request comes from: a user name and its groups. A service account's token makes the user
 * {@code system:serviceaccount:NS:NAME} in the groups {@code system:serviceaccounts},
 * {@code system:serviceaccounts:NS} and {@code system:authenticated}, as kube-apiserver's token authenticator
 * does; any other user is in {@code system:authenticated} only. Immutable; thread-safe.
 */
public record Subject(String user, List<String> groups) {
    static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
    static final String AUTHENTICATED = "system:authenticated";

    public Subject {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("a subject needs a user name");
        }
        groups = List.copyOf(groups);
    }

    /** The user and the groups kube-apiserver gives it. */
    public static Subject user(String user) {
        if (user != null && user.startsWith(SERVICE_ACCOUNT_PREFIX)) {
            String[] nsName = user.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", 2);
            if (nsName.length == 2) {
                return new Subject(
                        user, List.of("system:serviceaccounts", "system:serviceaccounts:" + nsName[0], AUTHENTICATED));
            }
        }
        return new Subject(user, List.of(AUTHENTICATED));
    }

    /** The user name of service account {@code namespace/name}. */
    public static String serviceAccount(String namespace, String name) {
        return SERVICE_ACCOUNT_PREFIX + namespace + ":" + name;
    }
}
