package dev.cartograph.mock.protobuf;

/**
 * One field of a Kubernetes protobuf message and its JSON name. {@code keepZero} is for the Go
 * pointer fields ({@code immutable}, {@code automountServiceAccountToken}, ...): present on the wire
 * means set, so a zero value is kept; for value fields the Go JSON encoder's {@code omitempty}
 * drops it. Immutable.
 */
record Field(int number, String json, Type type, boolean keepZero, Message nested) {
    /** How a field is encoded and rendered as JSON. */
    enum Type {
        STRING,
        BYTES,
        INT64,
        BOOL,
        /** {@code meta/v1 Time}: seconds and nanos, rendered RFC 3339 in seconds. */
        TIME,
        MESSAGE,
        STRING_MAP,
        BYTES_MAP,
        STRINGS,
        MESSAGES
    }

    static Field of(int number, String json, Type type) {
        return new Field(number, json, type, false, null);
    }

    static Field pointer(int number, String json, Type type) {
        return new Field(number, json, type, true, null);
    }

    static Field message(int number, String json, Message nested) {
        return new Field(number, json, Type.MESSAGE, false, nested);
    }

    static Field messages(int number, String json, Message nested) {
        return new Field(number, json, Type.MESSAGES, false, nested);
    }
}
