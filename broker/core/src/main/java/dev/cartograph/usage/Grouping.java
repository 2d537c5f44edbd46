package dev.cartograph.usage;

import java.util.Locale;
import java.util.Optional;

/** How usage is summed: per queue or per hub namespace (each per GPU model). */
public enum Grouping {
    QUEUE,
    NAMESPACE;

    /** {@code queue} or {@code namespace} (any case); empty for anything else. */
    public static Optional<Grouping> parse(String text) {
        for (Grouping g : values()) {
            if (g.name().equalsIgnoreCase(text.trim())) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    /** The lower-case name, as the API and the CLI write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
