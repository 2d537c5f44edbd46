package dev.cartograph.interpreter.podsecurity;

import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which pod security level applies in which namespace: {@code level} everywhere, except the namespaces
 * an operator listed as privileged. {@code privileged} cannot be the level of every namespace: opening
 * up is granted namespace by namespace. Immutable and thread-safe.
 *
 * @param level                 {@link Level#BASELINE} (the default) or {@link Level#RESTRICTED}
 * @param privilegedNamespaces  namespaces where pod templates are not checked against the standards
 */
public record PodSecurityPolicy(Level level, Set<String> privilegedNamespaces) {
    /** Baseline everywhere, no namespace privileged. */
    public static final PodSecurityPolicy DEFAULT = new PodSecurityPolicy(Level.BASELINE, Set.of());

    private static final String NAMESPACE = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

    public PodSecurityPolicy {
        Objects.requireNonNull(level, "level");
        if (level == Level.PRIVILEGED) {
            throw new IllegalArgumentException("pod security level 'privileged' cannot apply to every namespace;"
                    + " choose baseline or restricted, and list the namespaces that need privileged pods as"
                    + " privileged namespaces");
        }
        privilegedNamespaces = Set.copyOf(privilegedNamespaces);
        for (String ns : new TreeSet<>(privilegedNamespaces)) {
            if (!ns.matches(NAMESPACE)) {
                throw new IllegalArgumentException(
                        "privileged namespace '" + ns + "' is not a namespace name (lower case, digits, '-')");
            }
        }
    }

    /**
     * The policy as settings spell it: {@code level} is {@code baseline} or {@code restricted} (any case);
     * {@code privilegedNamespaces} may be null (none). Throws with what is wrong and what is allowed.
     */
    public static PodSecurityPolicy of(String level, Collection<String> privilegedNamespaces) {
        Level parsed = Level.parse(level)
                .filter(l -> l != Level.PRIVILEGED)
                .orElseThrow(() -> new IllegalArgumentException("pod security level must be baseline or restricted,"
                        + " not '" + level + "' (privileged is granted per namespace, by listing privileged"
                        + " namespaces)"));
        return new PodSecurityPolicy(
                parsed, privilegedNamespaces == null ? Set.of() : Set.copyOf(privilegedNamespaces));
    }

    /** The level pod templates in {@code namespace} are held to. */
    public Level levelFor(String namespace) {
        return privilegedNamespaces.contains(namespace) ? Level.PRIVILEGED : level;
    }
}
