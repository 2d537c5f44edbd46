package dev.cartograph.broker.coordinate;

import java.util.Optional;

/** The hub's PriorityClasses, as queue priority reads them. Implementations are thread-safe. */
public interface PriorityClasses {
    PriorityClasses NONE = new PriorityClasses() {
        @Override
        public Optional<Integer> value(String name) {
            return Optional.empty();
        }

        @Override
        public Optional<Integer> globalDefault() {
            return Optional.empty();
        }
    };

    Optional<Integer> value(String name);

    /** The value of the class marked {@code globalDefault}, if any. */
    Optional<Integer> globalDefault();
}
