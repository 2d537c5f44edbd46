package dev.cartograph.mock.table;

import java.util.Locale;

/** What each Table row carries as {@code object}: the request's {@code includeObject} parameter. */
public enum IncludeObject {
    /** No object. */
    NONE,
    /** A {@code meta.k8s.io/v1 PartialObjectMetadata} with the full metadata: the default. */
    METADATA,
    /** The whole object (kubectl asks for it with {@code --sort-by}). */
    OBJECT;

    /** From the query parameter ({@code None}, {@code Metadata}, {@code Object}); absent or unknown means METADATA. */
    public static IncludeObject fromParameter(String value) {
        if (value == null) {
            return METADATA;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "none" -> NONE;
            case "object" -> OBJECT;
            default -> METADATA;
        };
    }
}
