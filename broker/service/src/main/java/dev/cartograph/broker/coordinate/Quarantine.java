package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.PlacementRecord;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Where an input that failed to be handled goes: it is counted, logged once with the object's MDC
 * keys, and — when it concerns a hub object — the user is told where they look: a gang that runs nowhere is failed
 * with the reason (annotation and Warning Event); one with a copy on a cluster keeps it, as it was before the input
 * (a Warning Event says what could not be handled): an accident of the broker's never deletes what runs. The loop then
 * goes on. Coordinator thread only.
 */
final class Quarantine {
    private static final Logger LOG = LoggerFactory.getLogger(Quarantine.class);
    private final PlacementStore store;
    private final Submission submission;
    private final Effects effects;
    private long count;

    Quarantine(PlacementStore store, Submission submission, Effects effects) {
        this.store = store;
        this.submission = submission;
        this.effects = effects;
    }

    /**
     * Runs {@code work} as one unit of the batch: when it throws, what it staged and changed is undone first — nothing
     * half-done of it goes out — and the exception goes on to the caller.
     */
    void unit(Runnable work) {
        var outer = store.beginInput();
        Effects.Savepoint savepoint = effects.savepoint();
        try {
            work.run();
        } catch (RuntimeException | StackOverflowError e) {
            effects.rollbackTo(savepoint);
            store.undoInput(); // the clusters whose reservations it gave back are the store's to report
            throw e;
        } finally {
            store.endInput(outer);
        }
    }

    /**
     * Runs {@code handler} for the input, as one unit ({@link #unit}); a failure is quarantined instead of thrown: the
     * input's object is failed with the reason.
     */
    void guard(Input input, Runnable handler) {
        try {
            unit(handler);
        } catch (RuntimeException | StackOverflowError e) {
            count++;
            Optional<HubObject> object = safely(() -> uidOf(input).flatMap(store::object));
            try (LogScope ignored = mdc(object)) {
                LOG.error("could not handle {}; skipped", input.getClass().getSimpleName(), e);
            }
            String reason = "could not be handled: " + e;
            object.filter(o -> effects.active())
                    .ifPresent(o -> safely(() -> {
                        Optional<PlacementRecord> p = store.placement(o.uid());
                        Optional<String> runsOn = p.flatMap(PlacementRecord::cluster);
                        if (runsOn.isPresent()) { // what it did was undone: its copy stays as it was, and so does it
                            effects.event(
                                    o,
                                    EventReason.Invalid,
                                    reason + "; it stays on " + runsOn.get() + " as it was (epoch "
                                            + p.get().epoch() + ")");
                        } else if (p.isPresent() || !o.deleting()) { // runs nowhere: a new one fails as it is
                            submission.fail(
                                    p.orElseGet(() ->
                                            submission.queued(o, o.shownEpoch().orElse(1L))),
                                    o,
                                    reason,
                                    EventReason.Invalid);
                        } else {
                            effects.event(o, EventReason.Invalid, reason);
                        }
                        return Optional.empty();
                    }));
        }
    }

    /** The hub object an input is about, when there is one. */
    private static Optional<String> uidOf(Input input) {
        if (input instanceof Input.HubChanged h) {
            return Optional.of(h.object().path("metadata").path("uid").asText(""));
        } else if (input instanceof Input.HubDeleted h) {
            return Optional.of(h.object().path("metadata").path("uid").asText(""));
        } else if (input instanceof Input.Result r) {
            return Optional.of(r.result().placementId());
        }
        return Optional.empty();
    }

    long count() {
        return count;
    }

    private static <R> Optional<R> safely(java.util.function.Supplier<Optional<R>> action) {
        try {
            return action.get();
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("could not record the failure on its object", e);
            return Optional.empty();
        }
    }

    /** Log context for one input, removed when closed. */
    private interface LogScope extends AutoCloseable {
        @Override
        void close();
    }

    private static LogScope mdc(Optional<HubObject> object) {
        if (object.isEmpty()) {
            return () -> {};
        }
        PlacementRecord.Target t = object.get().target();
        MDC.put("kind", t.kind());
        MDC.put("namespace", t.namespace());
        MDC.put("name", t.name());
        return () -> {
            MDC.remove("kind");
            MDC.remove("namespace");
            MDC.remove("name");
        };
    }
}
