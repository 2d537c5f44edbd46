package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Why a pod does not fit a cluster, with the numbers a user can act on. Pure. */
final class Reasons {
    private Reasons() {}

    /**
     * @param t what the attempt has taken so far (shortfalls other than GPUs count it), or null
     */
    static String whyNot(Ask a, ClusterCapacity capacity, Tentative t) {
        PodDemand d = a.demand;
        String what = a.need.what();
        if (a.noNode()) {
            return "no node can run " + what + ": " + capacity.usable() + " of " + capacity.size()
                    + " nodes are ready and schedulable, none of them " + a.need.noneOfThem();
        }
        if (a.need.gpus() > 0) {
            Ask.GpuFigures f = a.gpuFigures();
            String product = d.gpuProduct().isEmpty() ? "" : " " + d.gpuProduct();
            return "needs " + d.count() + " pods × " + a.need.gpus() + " GPUs" + product + " (" + what
                    + "); largest free block " + f.largest() + " on " + f.nodes() + " ready nodes, room for "
                    + f.room() + " such pods (" + f.free() + " GPUs free in all)";
        }
        List<Slot> eligible = a.eligible();
        List<String> short_ = new ArrayList<>();
        for (Map.Entry<String, BigDecimal> e : a.need.request().amounts().entrySet()) {
            BigDecimal most = BigDecimal.ZERO;
            for (Slot s : eligible) {
                most = most.max(t == null ? s.free().get(e.getKey()) : t.free(s, e.getKey()));
            }
            if (most.compareTo(e.getValue()) < 0) {
                short_.add(e.getKey() + " " + Quantity.format(e.getValue()) + " (most free on one node: "
                        + Quantity.format(most) + ")");
            }
        }
        return "needs " + d.count() + " pods (" + what + ") each with " + String.join(", ", short_) + " on "
                + eligible.size() + " ready nodes";
    }

    static String format(Map<String, String> m) {
        return m.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }
}
