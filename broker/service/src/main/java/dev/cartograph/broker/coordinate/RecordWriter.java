package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.PlacementRecord;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes placement records durable on the placements topic, stamped with the leader's term, and only while this
 * instance is active: a record is acted on only once it is durable (ADR 0004). A write a newer leader refused makes
 * this instance step down. Coordinator thread only.
 */
final class RecordWriter {
    private static final Logger LOG = LoggerFactory.getLogger(RecordWriter.class);
    private final Outbox outbox;
    private final BooleanSupplier active;
    private final Runnable fenced;
    private long term;

    /** @param fenced called when a write is refused because a newer leader took over */
    RecordWriter(Outbox outbox, BooleanSupplier active, Runnable fenced) {
        this.outbox = outbox;
        this.active = active;
        this.fenced = fenced;
    }

    /** Records written from now on carry this leader term. */
    void term(long term) {
        this.term = term;
    }

    /** Writes the records together; the records as written (stamped with the term) once durable, empty otherwise. */
    Optional<List<PlacementRecord>> write(List<PlacementRecord> records) {
        if (!active.getAsBoolean()) {
            return Optional.empty();
        }
        List<PlacementRecord> stamped =
                records.stream().map(p -> p.inTerm(term)).toList();
        try {
            outbox.placements(stamped);
            return Optional.of(stamped);
        } catch (Outbox.Fenced e) {
            LOG.error("{} ({} records): not written, {}", records.get(0).target(), records.size(), e.getMessage());
            fenced.run();
            return Optional.empty();
        } catch (Exception e) {
            LOG.error(
                    "could not make the placement of {} ({} records) durable; not acting on it: {}",
                    records.get(0).target(),
                    records.size(),
                    e.toString());
            return Optional.empty();
        }
    }

    /** Writes the tombstone; false when it could not be made durable. */
    boolean tombstone(String uid) {
        if (!active.getAsBoolean()) {
            return false;
        }
        try {
            outbox.forget(uid);
            return true;
        } catch (Outbox.Fenced e) {
            LOG.error("tombstone for {} not written, {}", uid, e.getMessage());
            fenced.run();
            return false;
        } catch (Exception e) {
            LOG.warn("could not write the tombstone for {}: {}", uid, e.toString());
            return false;
        }
    }
}
