package dev.cartograph.mock.watch;

import java.util.Optional;

/**
 * One write to the store: the object before (absent for a create) and after (absent for a delete),
 * and the resourceVersion the write produced (a delete gets a fresh one, as on a real server).
 * Immutable; thread-safe.
 */
public record Change(long resourceVersion, Optional<Stored> before, Optional<Stored> after) {
    public Change {
        if (before.isEmpty() && after.isEmpty()) {
            throw new IllegalArgumentException("a change has an object before or after it, or both");
        }
    }

    public static Change created(long resourceVersion, Stored after) {
        return new Change(resourceVersion, Optional.empty(), Optional.of(after));
    }

    public static Change updated(long resourceVersion, Stored before, Stored after) {
        return new Change(resourceVersion, Optional.of(before), Optional.of(after));
    }

    public static Change deleted(long resourceVersion, Stored before) {
        return new Change(resourceVersion, Optional.of(before), Optional.empty());
    }
}
