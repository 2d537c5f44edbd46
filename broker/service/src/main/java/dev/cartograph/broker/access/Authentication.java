package dev.cartograph.broker.access;

/** What the identity source said about a token: who it is, that it is no one, or that it could not be asked. */
public sealed interface Authentication permits Authentication.Authenticated, Authentication.Rejected, Unavailable {

    /** The token is {@code caller}'s. */
    record Authenticated(Caller caller) implements Authentication {}

    /** The token is not valid (unknown, expired, revoked); {@code reason} says so without repeating it. */
    record Rejected(String reason) implements Authentication {}
}
