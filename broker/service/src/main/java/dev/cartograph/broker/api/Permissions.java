package dev.cartograph.broker.api;

import dev.cartograph.broker.access.AccessControl;
import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Question;
import dev.cartograph.broker.access.Unavailable;
import dev.cartograph.broker.access.Verdict;
import dev.cartograph.protocol.PlacementRecord;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a caller may do with workloads, asked as the hub would be: {@code verb} on the kind's resource
 * (plural and group as the hub serves it) in the workload's namespace. A kind the hub does not serve
 * cannot be asked about, so it is denied. Thread-safe.
 */
final class Permissions {
    private final AccessControl access;
    private final BrokerState broker;

    Permissions(AccessControl access, BrokerState broker) {
        this.access = access;
        this.broker = broker;
    }

    Verdict may(Caller caller, String verb, String apiVersion, String kind, String namespace) {
        Optional<ApiResource> resource = broker.resource(apiVersion, kind);
        if (resource.isEmpty()) {
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            return new Verdict.Denied(
                    new Question(verb, group, kind, namespace),
                    "the hub serves no kind " + kind + " of " + apiVersion + ", so its permissions cannot be asked");
        }
        return access.authorize(caller, Question.of(verb, resource.get(), namespace));
    }

    Verdict mayGet(Caller caller, PlacementRecord p) {
        return may(
                caller,
                Question.GET,
                p.target().apiVersion(),
                p.target().kind(),
                p.target().namespace());
    }

    /**
     * Whether the caller may {@code get} at least one of {@code kinds} in {@code namespace} (asked in order, stopping
     * at the first allowed): whether it may read workloads there, for views per namespace such as usage.
     */
    Verdict mayGetAny(Caller caller, Collection<ApiResource> kinds, String namespace) {
        Verdict last = new Verdict.Denied(
                new Question(Question.GET, "", "workloads", namespace),
                "the hub serves no federated workload kind to ask about");
        for (ApiResource kind : kinds) {
            Verdict v = access.authorize(caller, Question.of(Question.GET, kind, namespace));
            if (!(v instanceof Verdict.Denied)) {
                return v;
            }
            last = v;
        }
        return last;
    }

    /** The uids of {@code placements} the caller may {@code get}, or why that cannot be known now. */
    sealed interface Visible permits Uids, Unknown {}

    record Uids(Set<String> uids) implements Visible {}

    record Unknown(Unavailable why) implements Visible {}

    Visible visible(Caller caller, Collection<PlacementRecord> placements) {
        Set<String> uids = new HashSet<>();
        for (PlacementRecord p : placements) {
            Verdict v = mayGet(caller, p);
            if (v instanceof Unavailable u) {
                return new Unknown(u);
            }
            if (v instanceof Verdict.Allowed) {
                uids.add(p.uid());
            }
        }
        return new Uids(uids);
    }
}
