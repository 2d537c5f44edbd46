package dev.cartograph.catalog;

import dev.cartograph.interpreter.Definitions;

/**
 * Cartograph's built-in definitions: every {@code *.yaml} under {@code cartograph-catalog/} on
 * the classpath, one file per workload kind, with origin {@code catalog}. Adding a kind is adding
 * a file; no Java changes. Thread-safe.
 */
public final class Catalog {
    /** The classpath folder holding the definition files. */
    public static final String FOLDER = "cartograph-catalog";

    public static final String ORIGIN = "catalog";

    private Catalog() {}

    /** Loads the catalog; problems (there should be none in a release) come with it. */
    public static Definitions.Loaded load() {
        return load(kind -> true);
    }

    /** Only the definitions of the kinds {@code wanted} accepts (the others are not compiled). */
    public static Definitions.Loaded load(
            java.util.function.Predicate<dev.cartograph.interpreter.kind.GroupVersionKind> wanted) {
        return Definitions.loadClasspath(FOLDER, Catalog.class.getClassLoader(), ORIGIN, wanted);
    }
}
