package dev.cartograph.protocol;

import dev.cartograph.interpreter.resources.ResourceList;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The broker's durable decision about one hub object (compacted topic {@code P.placements}, key =
 * the hub object's uid, which is also the placement id agents label their copies with; a tombstone
 * once the hub object is gone). Written before any command is sent, so a restarted broker knows
 * every placement, its fencing epoch, and what it reserved on which node. Immutable.
 *
 * @param cluster  where the gang is placed; empty while it is queued
 * @param epoch    the fencing epoch: rises every time the placement moves to another cluster
 * @param reserved what the decision booked per node, held until the agent accounts for it
 * @param priority queue order, higher first; then {@code submitted}, then uid
 * @param term     the leader term of the broker that wrote it (the hub Lease's transitions when it took
 *                 the lease; 0 without leader election): which leader decided what, when reading the
 *                 topic's history
 * @param refusals the clusters that refused the gang's copy (admission, a missing CRD, quota, a name taken), each
 *                 with its reason: they are not tried again for this spec
 * @param pin      the node labels the copy's pods are kept to on its cluster (the topology domain the gang was
 *                 placed in), and which components' pods; {@link Pin#NONE} when none
 */
public record PlacementRecord(
        String uid,
        Target target,
        Optional<String> cluster,
        long epoch,
        State state,
        String reason,
        Map<String, ResourceList> reserved,
        int priority,
        Instant submitted,
        Instant at,
        long term,
        Map<String, String> refusals,
        Pin pin) {

    /**
     * What the broker adds to the copy so that the member keeps its pods in the topology domain the gang was placed in:
     * node labels every pod of {@code components} (all of the copy's pods when empty) is given as its node selector, or
     * — on a member whose own scheduler places by topology (Kueue TAS, KAI) — annotations for that scheduler on those
     * pod templates and on the object. Immutable.
     */
    public record Pin(
            Map<String, String> nodeSelector,
            java.util.Set<String> components,
            Map<String, String> podAnnotations,
            Map<String, String> objectAnnotations) {
        public static final Pin NONE = new Pin(Map.of(), java.util.Set.of());

        public Pin {
            nodeSelector = Map.copyOf(nodeSelector);
            components = java.util.Set.copyOf(components);
            podAnnotations = Map.copyOf(podAnnotations);
            objectAnnotations = Map.copyOf(objectAnnotations);
        }

        /** A pin by node selector. */
        public Pin(Map<String, String> nodeSelector, java.util.Set<String> components) {
            this(nodeSelector, components, Map.of(), Map.of());
        }

        public boolean none() {
            return nodeSelector.isEmpty() && podAnnotations.isEmpty() && objectAnnotations.isEmpty();
        }
    }

    /** A record without refusals or a pin ({@link #withRefusals}, {@link #withPin} add them). */
    public PlacementRecord(
            String uid,
            Target target,
            Optional<String> cluster,
            long epoch,
            State state,
            String reason,
            Map<String, ResourceList> reserved,
            int priority,
            Instant submitted,
            Instant at,
            long term) {
        this(uid, target, cluster, epoch, state, reason, reserved, priority, submitted, at, term, Map.of(), Pin.NONE);
    }

    /** A record not yet stamped with a leader term (the broker stamps it when it writes it). */
    public PlacementRecord(
            String uid,
            Target target,
            Optional<String> cluster,
            long epoch,
            State state,
            String reason,
            Map<String, ResourceList> reserved,
            int priority,
            Instant submitted,
            Instant at) {
        this(uid, target, cluster, epoch, state, reason, reserved, priority, submitted, at, 0);
    }

    /** Where the placement stands. */
    public enum State {
        /** fits nowhere yet; waits in the queue with the reason */
        QUEUED,
        /** decided and durable; the apply command is on its way to the cluster */
        PLACED,
        /** the cluster's agent created (or updated) its copy */
        APPLIED,
        /** the cluster's agent refused the manifest; the reason says why (not retried) */
        FAILED,
        /** the hub object is being deleted; the member copy's delete is on its way */
        DELETING,
        /**
         * suspended on the hub: nothing is reserved for it; a copy on {@code cluster} (when there is one) is suspended
         * there too. Resuming plans it again
         */
        SUSPENDED
    }

    /** The hub object the placement is for. */
    public record Target(String namespace, String apiVersion, String kind, String name) {
        public Target {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(apiVersion, "apiVersion");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String toString() {
            return kind + " " + namespace + "/" + name;
        }
    }

    public PlacementRecord {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(target, "target");
        cluster = cluster == null ? Optional.empty() : cluster;
        Objects.requireNonNull(state, "state");
        reason = reason == null ? "" : reason;
        reserved = Map.copyOf(reserved);
        refusals = refusals == null ? Map.of() : Map.copyOf(refusals);
        pin = pin == null ? Pin.NONE : pin;
        Objects.requireNonNull(submitted, "submitted");
        Objects.requireNonNull(at, "at");
    }

    public PlacementRecord with(
            Optional<String> cluster,
            long epoch,
            State state,
            String reason,
            Map<String, ResourceList> reserved,
            Instant at) {
        return new PlacementRecord(
                uid,
                target,
                cluster,
                epoch,
                state,
                reason,
                reserved,
                priority,
                submitted,
                at,
                term,
                refusals,
                cluster.isEmpty() ? Pin.NONE : pin); // on no cluster, in no domain
    }

    public PlacementRecord with(State state, String reason, Instant at) {
        return new PlacementRecord(
                uid, target, cluster, epoch, state, reason, reserved, priority, submitted, at, term, refusals, pin);
    }

    /** The same record with these refusals (cluster → reason) instead of its own. */
    public PlacementRecord withRefusals(Map<String, String> refusals) {
        return new PlacementRecord(
                uid, target, cluster, epoch, state, reason, reserved, priority, submitted, at, term, refusals, pin);
    }

    /** The same record with this pin (set when the gang is placed: it is kept while the gang stays placed). */
    public PlacementRecord withPin(Pin pin) {
        return new PlacementRecord(
                uid, target, cluster, epoch, state, reason, reserved, priority, submitted, at, term, refusals, pin);
    }

    /** The same decision, as written by the leader of {@code term}. */
    public PlacementRecord inTerm(long term) {
        return new PlacementRecord(
                uid, target, cluster, epoch, state, reason, reserved, priority, submitted, at, term, refusals, pin);
    }
}
