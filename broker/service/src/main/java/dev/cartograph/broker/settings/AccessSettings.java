package dev.cartograph.broker.settings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How the REST API knows its callers. Immutable.
 *
 * @param mode      where identities and permissions come from; {@link Mode#HUB} unless set
 * @param tokenFile the static token file, required in {@link Mode#TOKEN_FILE} mode
 * @param cacheTtl  how long an identity or a permission decision is kept (0: not at all)
 * @param cacheSize how many of each are kept at most
 */
public record AccessSettings(Mode mode, Optional<Path> tokenFile, Duration cacheTtl, int cacheSize) {
    /** Where identities and permissions come from. There is deliberately no mode without authentication. */
    public enum Mode {
        /** Bearer tokens reviewed by the hub (TokenReview), permissions asked of it (SubjectAccessReview). */
        HUB("hub"),
        /** A static token file of {@code token,user[,uid[,groups]]} lines; its users may do everything. */
        TOKEN_FILE("token-file");

        private final String key;

        Mode(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        /** {@code hub} or {@code token-file}; anything else is refused with the property's name. */
        public static Mode of(String key) {
            for (Mode m : values()) {
                if (m.key.equals(key.strip().toLowerCase(Locale.ROOT))) {
                    return m;
                }
            }
            throw new IllegalArgumentException("cartograph.broker.auth-mode must be hub or token-file, not '" + key
                    + "' (there is no mode without authentication)");
        }
    }

    public AccessSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(tokenFile, "tokenFile");
        Objects.requireNonNull(cacheTtl, "cacheTtl");
        if (mode == Mode.TOKEN_FILE && tokenFile.isEmpty()) {
            throw new IllegalArgumentException(
                    "cartograph.broker.auth-mode token-file needs cartograph.broker.auth-token-file (CARTOGRAPH_BROKER_AUTH_TOKEN_FILE)");
        }
        if (cacheTtl.isNegative() || cacheTtl.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException(
                    "cartograph.broker.auth-cache-ttl must be between 0 and 5m (a revoked permission lasts that long), not "
                            + cacheTtl);
        }
        if (cacheSize < 1) {
            throw new IllegalArgumentException(
                    "cartograph.broker.auth-cache-size must be at least 1, not " + cacheSize);
        }
    }
}
