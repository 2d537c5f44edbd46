package dev.cartograph.mock.server;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource URL path without query: {@code /api/v1[/namespaces/NS]/PLURAL[/NAME]} or
 * {@code /apis/GROUP/VERSION[/namespaces/NS]/PLURAL[/NAME]}; subresources and watch paths do not
 * parse. Whether PLURAL exists is for the caller to check. Immutable; thread-safe.
 *
 * @param group ({@code ""} for the core group)
 */
record ResourcePath(String group, String version, Optional<String> namespace, String plural, Optional<String> name) {
    private static final Pattern NAMESPACED =
            Pattern.compile("/(?:api|apis/([^/]+))/([^/]+)/namespaces/([^/]+)/([^/]+)(?:/([^/]+))?/?");
    private static final Pattern CLUSTER = Pattern.compile("/(?:api|apis/([^/]+))/([^/]+)/([^/]+)(?:/([^/]+))?/?");

    static Optional<ResourcePath> parse(String path) {
        Matcher m = NAMESPACED.matcher(path);
        if (m.matches()) {
            return Optional.of(new ResourcePath(
                    group(m.group(1)),
                    m.group(2),
                    Optional.of(m.group(3)),
                    m.group(4),
                    Optional.ofNullable(m.group(5))));
        }
        m = CLUSTER.matcher(path);
        if (m.matches() && !"watch".equals(m.group(3))) {
            return Optional.of(new ResourcePath(
                    group(m.group(1)), m.group(2), Optional.empty(), m.group(3), Optional.ofNullable(m.group(4))));
        }
        return Optional.empty();
    }

    /** Whether this names a collection rather than one object. */
    boolean isList() {
        return name.isEmpty();
    }

    private static String group(String group) {
        return group == null ? "" : group;
    }
}
