package dev.cartograph.protocol;

/** The outcome of decoding one record: a value, or why it could not be read. Immutable. */
public sealed interface Decoded<T> {
    record Ok<T>(T value) implements Decoded<T> {}

    record Failed<T>(String reason) implements Decoded<T> {}
}
