package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every effect the coordinator has outside itself, as values: placement records and tombstones, commands to agents,
 * and writes on hub objects. They are staged while a batch is handled — only while this instance is active — and
 * carried out once at its end ({@link #commit}): the records, tombstones and commands in one durable write (one Kafka
 * transaction, in order), so "durable before forwarded" is atomic; then, once that has committed, the hub writes.
 * A batch that does not commit sends nothing, writes nothing on the hub, and is undone ({@link PlacementStore}).
 * The gate is read again at the commit: a deposed leader commits nothing. Coordinator thread only.
 */
final class Effects {
    private static final Logger LOG = LoggerFactory.getLogger(Effects.class);

    /** A write on a hub object, made once the batch it belongs to has committed. */
    sealed interface HubWrite {
        HubObject object();

        void on(Hub hub);

        record Mark(HubObject object, Map<String, String> labels, Map<String, String> annotations) implements HubWrite {
            @Override
            public void on(Hub hub) {
                hub.mark(object.raw(), labels, annotations);
            }
        }

        record Status(HubObject object, JsonNode status) implements HubWrite {
            @Override
            public void on(Hub hub) {
                hub.status(object.raw(), status);
            }
        }

        record Event(HubObject object, EventReason reason, String message) implements HubWrite {
            @Override
            public void on(Hub hub) {
                hub.event(object.raw(), reason.type(), reason.name(), message);
            }
        }

        record AddFinalizer(HubObject object) implements HubWrite {
            @Override
            public void on(Hub hub) {
                hub.addFinalizer(object.raw());
            }
        }

        record RemoveFinalizer(HubObject object) implements HubWrite {
            @Override
            public void on(Hub hub) {
                hub.removeFinalizer(object.raw());
            }
        }
    }

    /** How far a batch's effects had got: {@link #rollbackTo} drops what was staged after it. */
    record Savepoint(int durable, int hub) {}

    private final Outbox outbox;
    private final Hub hub;
    private final BooleanSupplier active;
    private final Runnable fenced;
    private final WriterThread writer;
    private final List<Outbox.Write> durable = new ArrayList<>();
    private final List<HubWrite> hubWrites = new ArrayList<>();
    private long term;
    private long hubFailures;
    /** Something was staged while this instance was not active (it lost the lease mid-batch): the batch is undone. */
    private boolean refused;

    /**
     * @param fenced called when a write is refused because a newer leader took over
     * @param writer the coordinator's thread: staging from any other fails fast
     */
    Effects(Outbox outbox, Hub hub, BooleanSupplier active, Runnable fenced, WriterThread writer) {
        this.writer = writer;
        this.outbox = outbox;
        this.hub = hub;
        this.active = active;
        this.fenced = fenced;
    }

    boolean active() {
        return active.getAsBoolean();
    }

    /** Records staged from now on carry this leader term. */
    void term(long term) {
        this.term = term;
    }

    /**
     * Whether this instance may stage effects now. One that is not (it lost the lease while handling the batch) marks
     * the batch as not to be committed: everything it decided is undone.
     */
    private boolean admit() {
        writer.check();
        if (active()) {
            return true;
        }
        refused = true;
        return false;
    }

    /** Stages records that go out together; returns them as they will be written (stamped with the leader's term). */
    List<PlacementRecord> records(List<PlacementRecord> records) {
        List<PlacementRecord> stamped =
                records.stream().map(p -> p.inTerm(term)).toList();
        if (admit()) {
            stamped.forEach(r -> durable.add(new Outbox.Write.Placement(r)));
        }
        return stamped;
    }

    /** Stages the tombstone of a placement. */
    void tombstone(String uid) {
        if (admit()) {
            durable.add(new Outbox.Write.Tombstone(uid));
        }
    }

    /** Why {@code command} can never be made durable (larger than a record may be), or empty ({@link Outbox#tooLarge}). */
    java.util.Optional<String> tooLarge(Command command) {
        return outbox.tooLarge(command);
    }

    /** Stages a command to a cluster's agent. */
    void command(String cluster, Command command) {
        if (admit()) {
            durable.add(new Outbox.Write.ToCluster(cluster, command));
        }
    }

    void event(HubObject object, EventReason reason, String message) {
        stage(new HubWrite.Event(object, reason, message));
    }

    /** Sets these labels and annotations on the hub object (an empty value removes one). */
    void mark(HubObject object, Map<String, String> labels, Map<String, String> annotations) {
        stage(new HubWrite.Mark(object, Map.copyOf(labels), Map.copyOf(annotations)));
    }

    void status(HubObject object, JsonNode status) {
        stage(new HubWrite.Status(object, status));
    }

    void addFinalizer(HubObject object) {
        if (!object.finalized()) {
            stage(new HubWrite.AddFinalizer(object));
        }
    }

    void removeFinalizer(HubObject object) {
        stage(new HubWrite.RemoveFinalizer(object));
    }

    private void stage(HubWrite write) {
        if (admit()) {
            hubWrites.add(write);
        }
    }

    Savepoint savepoint() {
        return new Savepoint(durable.size(), hubWrites.size());
    }

    /** Drops what was staged since the savepoint (the input that staged it failed). */
    void rollbackTo(Savepoint s) {
        durable.subList(s.durable(), durable.size()).clear();
        hubWrites.subList(s.hub(), hubWrites.size()).clear();
    }

    /**
     * Carries out the batch's effects: its records, tombstones and commands in one durable write, then its hub writes
     * (each on its own: one that fails is logged and counted, and the rest go on). Returns false when the durable
     * write did not happen — this instance is no longer active, Kafka refused it, or a newer leader fenced this one —
     * and then nothing of the batch is carried out: the caller undoes it.
     */
    boolean commit() {
        List<Outbox.Write> writes = recordsFirst(durable);
        List<HubWrite> after = List.copyOf(hubWrites);
        durable.clear();
        hubWrites.clear();
        boolean wasRefused = refused;
        refused = false;
        if (wasRefused) {
            LOG.info("not active any more: nothing of this batch is carried out, and what it decided is undone");
            return false;
        }
        if (!writes.isEmpty()) {
            if (!active()) {
                LOG.info("not active any more: {} durable writes of this batch not made", writes.size());
                return false;
            }
            try {
                outbox.write(writes);
            } catch (Outbox.Fenced e) {
                LOG.error("{} durable writes not made: {}", writes.size(), e.getMessage());
                fenced.run();
                return false;
            } catch (Exception e) {
                LOG.error(
                        "could not make this batch's {} durable writes durable; nothing of it is acted on: {}",
                        writes.size(),
                        e.toString());
                return false;
            }
        }
        for (HubWrite w : after) {
            if (!active()) {
                return true; // deposed since: a newer leader writes on the hub now
            }
            try {
                w.on(hub);
            } catch (RuntimeException e) {
                hubFailures++;
                LOG.warn(
                        "{}: could not write {} on the hub: {}",
                        w.object().target(),
                        w.getClass().getSimpleName(),
                        e.toString());
            }
        }
        return true;
    }

    /**
     * The batch's durable writes with every placement record and tombstone before every command, each kind in the order
     * staged: one transaction either way, but a reader of the topics' history (an audit, the fault suite's checker)
     * then sees each command after the record that decided it.
     */
    private static List<Outbox.Write> recordsFirst(List<Outbox.Write> staged) {
        List<Outbox.Write> out = new java.util.ArrayList<>(staged.size());
        staged.stream().filter(w -> !(w instanceof Outbox.Write.ToCluster)).forEach(out::add);
        staged.stream().filter(w -> w instanceof Outbox.Write.ToCluster).forEach(out::add);
        return out;
    }

    /** Hub writes that threw (the hub client itself retries; these are its bugs), for the view. */
    long hubFailures() {
        return hubFailures;
    }
}
