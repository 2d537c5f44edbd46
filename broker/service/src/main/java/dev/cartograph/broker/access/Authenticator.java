package dev.cartograph.broker.access;

/** Who a bearer token belongs to. Implementations are thread-safe and never throw: trouble is {@link Unavailable}. */
public interface Authenticator {
    Authentication authenticate(BearerToken token);
}
