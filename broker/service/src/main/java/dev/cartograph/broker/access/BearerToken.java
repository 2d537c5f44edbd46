package dev.cartograph.broker.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * A bearer token a caller sent. Its text never appears in {@link #toString}, logs or cache keys: those
 * use {@link #hash()}. Immutable.
 */
public final class BearerToken {
    private final String value;
    private final String hash;

    public BearerToken(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("a bearer token cannot be empty");
        }
        this.value = value;
        this.hash = HexFormat.of().formatHex(sha256(value));
    }

    /**
     * The token of an {@code Authorization} header value {@code Bearer TOKEN} (scheme case-insensitive,
     * RFC 6750), or empty when there is none.
     */
    public static Optional<BearerToken> fromHeader(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        String a = authorization.strip();
        if (a.length() <= 7 || !a.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return Optional.empty();
        }
        String token = a.substring(7).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(new BearerToken(token));
    }

    /** The token's text, for the one call that has to send it on (the hub's TokenReview). */
    public String reveal() {
        return value;
    }

    /** SHA-256 of the token in hex: what caches and logs key on. */
    public String hash() {
        return hash;
    }

    /** Whether this token is {@code other}, in time that does not depend on where they differ. */
    public boolean matches(BearerToken other) {
        return MessageDigest.isEqual(sha256(value), sha256(other.value));
    }

    static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BearerToken t && matches(t);
    }

    @Override
    public int hashCode() {
        return hash.hashCode();
    }

    @Override
    public String toString() {
        return "BearerToken[sha256:" + hash.substring(0, 12) + "…]";
    }
}
