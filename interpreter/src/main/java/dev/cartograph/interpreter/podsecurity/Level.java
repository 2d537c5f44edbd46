package dev.cartograph.interpreter.podsecurity;

import java.util.Locale;
import java.util.Optional;

/**
 * The Kubernetes Pod Security Standards levels, from the most open to the most closed. Immutable.
 *
 * <p>{@link #PRIVILEGED} checks nothing of the standards; {@link #BASELINE} prevents the known
 * privilege escalations (host namespaces, privileged containers, hostPath, extra capabilities…);
 * {@link #RESTRICTED} adds the hardening best practices (non-root, seccomp, dropped capabilities,
 * volume types). Whatever the level, a pod template that names its node ({@code spec.nodeName}) is
 * refused: it would bypass placement.
 */
public enum Level {
    PRIVILEGED,
    BASELINE,
    RESTRICTED;

    /** The level as settings and messages spell it: {@code privileged}, {@code baseline}, {@code restricted}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The level spelled {@code text} (any case, surrounding blanks ignored); empty for anything else. */
    public static Optional<Level> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String wanted = text.strip();
        for (Level l : values()) {
            if (l.toString().equalsIgnoreCase(wanted)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }
}
