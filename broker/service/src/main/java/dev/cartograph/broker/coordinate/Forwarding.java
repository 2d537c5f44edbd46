package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.mutate.Mutator;
import dev.cartograph.interpreter.mutate.PodPatch;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.MemberManifest;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.WorkloadKey;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a placed hub object to its cluster's agent, as the manifest a member may create, and
 * remembers which spec went, with its demand, and when (so a change is checked and forwarded once,
 * and an unanswered apply is sent again). Coordinator thread only.
 */
final class Forwarding {
    private static final Logger LOG = LoggerFactory.getLogger(Forwarding.class);
    private final PlacementStore store;
    private final Effects effects;
    private final Clock clock;
    private final DependencyCopies dependencies;
    private final java.util.function.Supplier<Interpreter> interpreter;

    Forwarding(
            PlacementStore store,
            Effects effects,
            Clock clock,
            DependencyCopies dependencies,
            java.util.function.Supplier<Interpreter> interpreter) {
        this.store = store;
        this.effects = effects;
        this.clock = clock;
        this.dependencies = dependencies;
        this.interpreter = interpreter;
    }

    /**
     * Sends the object's current spec to the placement's cluster at the placement's epoch; never a spec its
     * namespace's pod security refuses ({@code asked} says so: a placement recorded under another policy, sent
     * again after a restart), which is only remembered as if sent, so it is not tried again before its time. The
     * ConfigMaps, Secrets, ServiceAccount and claims its pods need go with it, as the hub has them now. Returns why it
     * was not sent when it is larger than a command may be ({@link Outbox#tooLarge}); nothing is staged then.
     */
    java.util.Optional<String> apply(PlacementRecord p, HubObject object, java.util.Optional<DemandCache.Asked> asked) {
        Instant now = clock.instant();
        String cluster = p.cluster().orElseThrow(() -> new IllegalStateException(p.target() + " is not placed"));
        if (asked.filter(DemandCache.Asked::unsafe).isPresent()) {
            LOG.warn("{}: not sent to {}: {}", p.target(), cluster, ((DemandCache.Asked.Invalid) asked.get()).reason());
            store.forwarded(p.uid(), new PlacementState.Forwarded(object.spec(), asked));
            store.sent(p, now);
            return java.util.Optional.empty();
        }
        return send(p, object, object.raw(), new PlacementState.Forwarded(object.spec(), asked));
    }

    /**
     * Sends {@code raw}, the hub object as the broker changed it (suspended for a preemption), instead of the hub's
     * spec: the copy differs from the hub object until it is sent again.
     */
    java.util.Optional<String> applyAs(PlacementRecord p, HubObject object, JsonNode raw) {
        return send(p, object, raw, new PlacementState.Forwarded(raw.path("spec"), java.util.Optional.empty()));
    }

    /**
     * Sends {@code raw}, the hub object with its definition's resume actions applied (a preempted gang's suspended
     * copy runs again), remembered as the hub's spec: it asks what the hub object asks.
     */
    java.util.Optional<String> applyResumed(
            PlacementRecord p, HubObject object, JsonNode raw, java.util.Optional<DemandCache.Asked> asked) {
        return send(p, object, raw, new PlacementState.Forwarded(object.spec(), asked));
    }

    /**
     * Stages the apply, unless it is larger than a command may be: then nothing is staged and the reason (with the
     * bytes and the limit) is returned, for the caller to refuse what led to it.
     */
    private java.util.Optional<String> send(
            PlacementRecord p, HubObject object, JsonNode raw, PlacementState.Forwarded what) {
        Instant now = clock.instant();
        String cluster = p.cluster().orElseThrow(() -> new IllegalStateException(p.target() + " is not placed"));
        Command.Apply apply =
                new Command.Apply(p.uid(), p.epoch(), now, manifest(pinned(p, raw)), dependencies.manifests(object));
        java.util.Optional<String> tooLarge = effects.tooLarge(apply);
        if (tooLarge.isPresent()) {
            String reason = "its copy cannot be sent to " + cluster + ": " + tooLarge.get();
            LOG.warn("{}: {}", p.target(), reason);
            return java.util.Optional.of(reason);
        }
        effects.command(cluster, apply);
        store.forwarded(p.uid(), what);
        store.sent(p, now);
        return java.util.Optional.empty();
    }

    /**
     * {@code raw} with the placement's pin in the node selector of the pod templates it binds, so the member's scheduler
     * keeps the pods in the topology domain the gang was placed in.
     */
    private JsonNode pinned(PlacementRecord p, JsonNode raw) {
        PlacementRecord.Pin pin = p.pin();
        if (pin.none()) {
            return raw;
        }
        PodPatch patch = PodPatch.EMPTY;
        for (var e : new java.util.TreeMap<>(pin.nodeSelector()).entrySet()) {
            patch = patch.withNodeSelector(e.getKey(), e.getValue());
        }
        for (var e : new java.util.TreeMap<>(pin.podAnnotations()).entrySet()) {
            patch = patch.withAnnotation(e.getKey(), e.getValue());
        }
        JsonNode out = raw;
        if (!patch.equals(PodPatch.EMPTY)) {
            List<java.util.Optional<String>> scopes = pin.components().isEmpty()
                    ? List.of(java.util.Optional.empty())
                    : pin.components().stream()
                            .sorted()
                            .map(java.util.Optional::of)
                            .toList();
            for (java.util.Optional<String> component : scopes) {
                Mutator.Result r = interpreter.get().patchPods(out, patch, component);
                if (!r.problems().isEmpty()) {
                    LOG.warn("{}: could not keep its pods in their domain {}: {}", p.target(), pin, r.problems());
                }
                out = r.object();
            }
        }
        if (!pin.objectAnnotations().isEmpty()) {
            com.fasterxml.jackson.databind.node.ObjectNode copy = out.deepCopy();
            com.fasterxml.jackson.databind.node.ObjectNode meta = copy.with("metadata");
            com.fasterxml.jackson.databind.node.ObjectNode annotations = meta.with("annotations");
            new java.util.TreeMap<>(pin.objectAnnotations()).forEach(annotations::put);
            out = copy;
        }
        return out;
    }

    /** Asks the placement's cluster to delete its copy, at the placement's epoch (it goes out with the batch). */
    void delete(PlacementRecord p, String cluster) {
        Instant now = clock.instant();
        effects.command(cluster, new Command.Delete(p.uid(), p.epoch(), now, copy(p, cluster)));
        store.sent(p, now);
    }

    /** The placement's copy on {@code cluster}: the hub object's kind, namespace and name (the member copy keeps them). */
    static WorkloadKey copy(PlacementRecord p, String cluster) {
        PlacementRecord.Target t = p.target();
        return new WorkloadKey(
                cluster,
                t.namespace(),
                GroupVersionKind.of(t.apiVersion(), t.kind()).group(),
                t.kind(),
                t.name());
    }

    /** What is sent to the member: the hub object as a member may create it (the one rule, {@link MemberManifest}). */
    static JsonNode manifest(JsonNode object) {
        return MemberManifest.of(object, MemberManifest.FORWARDED);
    }
}
