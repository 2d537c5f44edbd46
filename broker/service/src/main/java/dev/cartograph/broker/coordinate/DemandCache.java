package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.podsecurity.Level;
import dev.cartograph.interpreter.podsecurity.PodSecurity;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.interpreter.podsecurity.Violation;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import dev.cartograph.placement.Demands;
import dev.cartograph.placement.PodDemand;
import java.util.HashMap;
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
        record Gang(List<PodDemand> pods, Map<String, String> clusterSelector) implements Asked {
            public Gang {
                pods = List.copyOf(pods);
                clusterSelector = Map.copyOf(clusterSelector);
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

    private record Entry(JsonNode spec, String selector, Interpreter interpreter, Asked asked) {}

    private final int maxPods;
    private final PodSecurityPolicy podSecurity;
    private final Map<String, Entry> entries = new HashMap<>();

    /**
     * @param maxPods     the most pods one gang may ask to have planned (a budget on user input)
     * @param podSecurity the level each namespace's pod templates must meet
     */
    DemandCache(int maxPods, PodSecurityPolicy podSecurity) {
        if (maxPods < 1) {
            throw new IllegalArgumentException("max pods per gang must be at least 1, not " + maxPods);
        }
        this.maxPods = maxPods;
        this.podSecurity = java.util.Objects.requireNonNull(podSecurity, "podSecurity");
    }

    Asked demand(HubObject object, Interpreter interpreter) {
        Entry known = entries.get(object.uid());
        if (known != null
                && known.interpreter() == interpreter
                && known.selector().equals(object.clusterSelectorText())
                && known.spec().equals(object.spec())) {
            return known.asked();
        }
        Asked asked = interpret(object, interpreter);
        entries.put(object.uid(), new Entry(object.spec(), object.clusterSelectorText(), interpreter, asked));
        return asked;
    }

    private Asked interpret(HubObject object, Interpreter interpreter) {
        if (!object.spec().isObject() || object.spec().isEmpty()) {
            return new Asked.Invalid("field spec: missing or empty; there is nothing to place");
        }
        try {
            Resolution resolution = interpreter.resolve(object.raw());
            if (!(resolution instanceof Resolution.Resolved r)) {
                return new Asked.Invalid("cannot interpret it: "
                        + resolution.problems().stream().map(Problem::toString).collect(Collectors.joining("; ")));
            }
            List<Problem> unknownDemand =
                    r.problems().stream().filter(DemandCache::aboutDemand).toList();
            if (!unknownDemand
                    .isEmpty()) { // what it asks for could not be read: planning it as read would place the wrong gang
                return new Asked.Invalid("cannot tell what it asks for: "
                        + unknownDemand.stream().map(Problem::toString).collect(Collectors.joining("; ")));
            }
            Level level = podSecurity.levelFor(object.target().namespace());
            List<Violation> violations = PodSecurity.check(r.view(), level);
            if (!violations.isEmpty()) {
                return new Asked.Invalid(
                        PodSecurity.summary(level, object.target().namespace(), violations)
                                + ". Change the pod templates to comply; nothing was sent to any cluster",
                        EventReason.PodSecurity);
            }
            long pods = pods(r.view());
            if (pods > maxPods) {
                return new Asked.Invalid("too many pods to plan: the gang asks for " + pods
                        + " pods; the broker plans at most " + maxPods + " per gang (max-pods-per-gang)");
            }
            return new Asked.Gang(Demands.of(r.view()), object.clusterSelector());
        } catch (RuntimeException | StackOverflowError e) {
            return new Asked.Invalid("cannot interpret it: " + e);
        }
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

    void forget(String uid) {
        entries.remove(uid);
    }
}
