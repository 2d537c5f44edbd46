package dev.cartograph.local.fault;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The invariants, read from the member stores and the hub at one moment: every gang the suite kept is
 * placed exactly once (one copy across the members, labelled with the hub object's uid, and the hub names
 * that cluster) or waits on the hub ({@code Queued} with a reason); every gang it deleted is gone from the
 * hub (finalizer removed) and from every member. Immutable.
 */
record Verdict(Map<Outcome, List<String>> outcomes) {
    enum Outcome {
        /** one copy, and the hub object names its cluster */
        PLACED,
        /** no copy; the hub object says Queued with a reason */
        WAITING,
        /** deleted on the hub, and gone from the hub and every member */
        DELETED,
        /** two or more copies */
        DUPLICATED,
        /** one copy, but the hub object names another cluster or none (yet) */
        HUB_DISAGREES,
        /** placed, though by hand it fits on no cluster's nodes: an over-commit */
        PLACED_BUT_FITS_NOWHERE,
        /** deleted on the hub, but still on the hub or on a member */
        DELETE_PENDING,
        /** none of the above: no copy and not waiting with a reason, or the hub object is gone though never deleted */
        LOST
    }

    /** A submitted gang as the suite knows it: its hub uid, and whether the suite deleted it. */
    record Submitted(Gang gang, String uid, boolean deleted) {}

    static Verdict read(KubernetesClient hub, MemberStores members, List<Submitted> submitted) {
        Map<String, List<MemberStores.Copy>> copies = members.copies();
        Map<Outcome, List<String>> out = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            out.put(o, new ArrayList<>());
        }
        for (Submitted s : submitted) {
            GenericKubernetesResource now = hub.genericKubernetesResources(
                            s.gang().kind().context)
                    .inNamespace(Clusters.NAMESPACE)
                    .withName(s.gang().name())
                    .get();
            List<MemberStores.Copy> its = copies.getOrDefault(s.uid(), List.of());
            Outcome o =
                    classify(s, now != null && s.uid().equals(now.getMetadata().getUid()) ? now : null, its);
            out.get(o).add(s.gang().name() + " " + describe(now, its));
        }
        return new Verdict(out);
    }

    private static Outcome classify(Submitted s, GenericKubernetesResource onHub, List<MemberStores.Copy> copies) {
        if (s.deleted()) {
            return onHub == null && copies.isEmpty() ? Outcome.DELETED : Outcome.DELETE_PENDING;
        }
        if (copies.size() > 1) {
            return Outcome.DUPLICATED;
        }
        if (onHub == null) {
            return Outcome.LOST;
        }
        Map<String, String> labels = onHub.getMetadata().getLabels() == null
                ? Map.of()
                : onHub.getMetadata().getLabels();
        if (copies.size() == 1 && s.gang().fitsNowhere()) {
            return Outcome.PLACED_BUT_FITS_NOWHERE;
        }
        if (copies.size() == 1) {
            return copies.get(0).cluster().equals(labels.get("cartograph.dev/cluster"))
                    ? Outcome.PLACED
                    : Outcome.HUB_DISAGREES;
        }
        Map<String, String> annotations = onHub.getMetadata().getAnnotations() == null
                ? Map.of()
                : onHub.getMetadata().getAnnotations();
        String reason = annotations.getOrDefault("cartograph.dev/reason", "");
        return "Queued".equals(labels.get("cartograph.dev/phase")) && !reason.isBlank()
                ? Outcome.WAITING
                : Outcome.LOST;
    }

    private static String describe(GenericKubernetesResource onHub, List<MemberStores.Copy> copies) {
        if (onHub == null) {
            return "[hub: gone; copies " + copies + "]";
        }
        Map<String, String> labels = onHub.getMetadata().getLabels() == null
                ? Map.of()
                : onHub.getMetadata().getLabels();
        return "[hub: phase=" + labels.get("cartograph.dev/phase") + " cluster=" + labels.get("cartograph.dev/cluster")
                + (onHub.getMetadata().getDeletionTimestamp() != null
                        ? " deleting, finalizers=" + onHub.getMetadata().getFinalizers()
                        : "")
                + "; copies on "
                + copies.stream().map(MemberStores.Copy::cluster).toList() + "]";
    }

    /** Whether every gang is placed, waiting or deleted as it should be. */
    boolean holds() {
        return Set.of(Outcome.PLACED, Outcome.WAITING, Outcome.DELETED)
                .containsAll(nonEmpty().keySet());
    }

    int count(Outcome o) {
        return outcomes.get(o).size();
    }

    /** The outcomes that happened, with the gangs (and what the hub and members said) for each. */
    Map<Outcome, List<String>> nonEmpty() {
        Map<Outcome, List<String>> out = new TreeMap<>();
        outcomes.forEach((o, gangs) -> {
            if (!gangs.isEmpty()) {
                out.put(o, gangs);
            }
        });
        return out;
    }

    /** Counts per outcome, e.g. {@code PLACED=41 WAITING=9 DELETED=10}. */
    String counts() {
        StringBuilder b = new StringBuilder();
        nonEmpty()
                .forEach((o, gangs) -> b.append(b.length() == 0 ? "" : " ")
                        .append(o)
                        .append('=')
                        .append(gangs.size()));
        return b.toString();
    }
}
