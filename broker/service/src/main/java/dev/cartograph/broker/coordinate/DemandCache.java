package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.dependency.Dependencies;
import dev.cartograph.interpreter.dependency.Dependency;
import dev.cartograph.interpreter.podsecurity.Level;
import dev.cartograph.interpreter.podsecurity.PodSecurity;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.interpreter.podsecurity.Violation;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import dev.cartograph.placement.Demands;
import dev.cartograph.placement.GangTopology;
import dev.cartograph.placement.PodDemand;
import dev.cartograph.placement.TopologyAsks;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What each hub object asks of a cluster, interpreted once per spec, cluster selector and
 * definitions: a queued gang is planned again on every capacity change, and interpreting it again
 * each time would repeat the jq work for nothing. Whatever goes wrong while interpreting one object
 * — problems the interpreter reports, a gang too large to plan, an unexpected exception — is an
 * {@link Asked.Invalid} with a reason for that object alone. So is a gang whose pod templates break its
 * namespace's pod security level ({@link PodSecurityPolicy}): it is never planned, so never sent to a member.
 * Coordinator thread only.
 */
final class DemandCache {
    /** What one object asks for, or why it cannot be planned. */
    sealed interface Asked {
        /** @param topology the topology domain its pods ask to be kept in ({@link GangTopology#NONE}: none) */
        record Gang(List<PodDemand> pods, Map<String, String> clusterSelector, GangTopology topology) implements Asked {
            public Gang {
                pods = List.copyOf(pods);
                clusterSelector = Map.copyOf(clusterSelector);
                java.util.Objects.requireNonNull(topology, "topology");
            }

            Gang(List<PodDemand> pods, Map<String, String> clusterSelector) {
                this(pods, clusterSelector, GangTopology.NONE);
            }

            /** {@code pods} as placed with this pin: those it binds select the pinned domain's label. */
            static List<PodDemand> pinned(List<PodDemand> pods, dev.cartograph.protocol.PlacementRecord.Pin pin) {
                if (pin.none()) {
                    return pods;
                }
                return pods.stream()
                        .map(d -> pin.components().isEmpty() || pin.components().contains(d.component())
                                ? d.pinnedTo(pin.nodeSelector())
                                : d)
                        .toList();
            }
        }

        /** Why it cannot be placed, and the Event reason that says so on the hub. */
        record Invalid(String reason, EventReason why) implements Asked {
            Invalid(String reason) {
                this(reason, EventReason.Invalid);
            }
        }

        /** True when pod security refuses it: never sent to a member, whatever was decided before. */
        default boolean unsafe() {
            return this instanceof Invalid invalid && invalid.why() == EventReason.PodSecurity;
        }
    }

    /**
     * What else an object needs, read in the same pass as its ask (kept apart from {@link Asked.Gang}, which groups
     * waiting gangs by the capacity they ask for): the objects its pods need from its namespace, and whether it is
     * suspended (by its definition's suspend actions).
     */
    record Needs(List<Dependency> dependencies, boolean suspended) {
        static final Needs NONE = new Needs(List.of(), false);

        Needs {
            dependencies = List.copyOf(dependencies);
        }
    }

    /**
     * One object's interpretation, kept in its {@link PlacementState} and used again while its spec, cluster selector
     * and definitions are the same.
     */
    record Interpreted(
            String namespace, JsonNode spec, String selector, Interpreter interpreter, Asked asked, Needs needs) {}

    private record Read(Asked asked, Needs needs) {}

    private final int maxPods;
    private final PodSecurityPolicy podSecurity;
    private final PlacementStore store;

    /**
     * @param maxPods     the most pods one gang may ask to have planned (a budget on user input)
     * @param podSecurity the level each namespace's pod templates must meet
     * @param store       where each object's interpretation is kept, with the rest of its placement's state
     */
    DemandCache(int maxPods, PodSecurityPolicy podSecurity, PlacementStore store) {
        if (maxPods < 1) {
            throw new IllegalArgumentException("max pods per gang must be at least 1, not " + maxPods);
        }
        this.maxPods = maxPods;
        this.podSecurity = java.util.Objects.requireNonNull(podSecurity, "podSecurity");
        this.store = store;
    }

    Asked demand(HubObject object, Interpreter interpreter) {
        return entry(object, interpreter).asked();
    }

    /** What else the object needs (nothing when it cannot be interpreted). */
    Needs needs(HubObject object, Interpreter interpreter) {
        return entry(object, interpreter).needs();
    }

    private Interpreted entry(HubObject object, Interpreter interpreter) {
        Interpreted known =
                store.state(object.uid()).flatMap(PlacementState::asked).orElse(null);
        if (known != null
                && known.interpreter() == interpreter
                && known.selector().equals(object.clusterSelectorText())
                && known.spec().equals(object.spec())) {
            return known;
        }
        Read read = interpret(object, interpreter);
        Interpreted entry = new Interpreted(
                object.target().namespace(),
                object.spec(),
                object.clusterSelectorText(),
                interpreter,
                read.asked(),
                read.needs());
        store.update(object.uid(), s -> s.withAsked(entry));
        return entry;
    }

    private Read interpret(HubObject object, Interpreter interpreter) {
        if (!object.spec().isObject() || object.spec().isEmpty()) {
            return invalid(new Asked.Invalid("field spec: missing or empty; there is nothing to place"));
        }
        try {
            Resolution resolution = interpreter.resolve(object.raw());
            if (!(resolution instanceof Resolution.Resolved r)) {
                return invalid(new Asked.Invalid("cannot interpret it: "
                        + resolution.problems().stream().map(Problem::toString).collect(Collectors.joining("; "))));
            }
            List<Problem> unknownDemand =
                    r.problems().stream().filter(DemandCache::aboutDemand).toList();
            if (!unknownDemand
                    .isEmpty()) { // what it asks for could not be read: planning it as read would place the wrong gang
                return invalid(new Asked.Invalid("cannot tell what it asks for: "
                        + unknownDemand.stream().map(Problem::toString).collect(Collectors.joining("; "))));
            }
            Level level = podSecurity.levelFor(object.target().namespace());
            List<Violation> violations = PodSecurity.check(r.view(), level);
            if (!violations.isEmpty()) {
                return invalid(new Asked.Invalid(
                        PodSecurity.summary(level, object.target().namespace(), violations)
                                + ". Change the pod templates to comply; nothing was sent to any cluster",
                        EventReason.PodSecurity));
            }
            long pods = pods(r.view());
            if (pods > maxPods) {
                return invalid(new Asked.Invalid("too many pods to plan: the gang asks for " + pods
                        + " pods; the broker plans at most " + maxPods + " per gang (max-pods-per-gang)"));
            }
            TopologyAsks.Asked topology = TopologyAsks.of(object.raw(), r.view());
            if (topology.problem().isPresent()) {
                return invalid(new Asked.Invalid(topology.problem().get()));
            }
            return new Read(
                    new Asked.Gang(Demands.of(r.view()), object.clusterSelector(), topology.topology()),
                    new Needs(
                            Dependencies.of(r.view()),
                            interpreter.suspended(object.raw()).orElse(false)));
        } catch (RuntimeException | StackOverflowError e) {
            return invalid(new Asked.Invalid("cannot interpret it: " + e));
        }
    }

    private static Read invalid(Asked.Invalid invalid) {
        return new Read(invalid, Needs.NONE);
    }

    /**
     * An error that leaves the gang's demand unknown: any error outside the definition's status
     * mappings and pod selectors (those decide a phase and which live pods belong where, not what to place).
     */
    private static boolean aboutDemand(Problem p) {
        return p.isError()
                && !p.field().contains("statusDefinition")
                && !p.field().contains("podSelector");
    }

    /** The pods placement would have to find nodes for, counted without overflow. */
    private static long pods(WorkloadView view) {
        boolean gang = view.gang().minMember() > 0;
        long total = 0;
        for (ComponentView c : view.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (i.hasPods()) {
                    long n = gang ? i.replicas().min() : i.replicas().desired();
                    total = n < 0 || Long.MAX_VALUE - total < n ? Long.MAX_VALUE : total + n;
                }
            }
        }
        return total;
    }
}
