package dev.cartograph.placement;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The most GPUs of each model one gang may take, whichever cluster it lands on: what its queue's quota leaves it
 * (ADR 0006). The planner treats it like a cluster selector: a cluster where the gang's plan would take more of
 * some model than this is not chosen, and its verdict gives the limit's own explanation. A model without a
 * limit here is not limited. The plan of a cluster is made as without a budget, then checked: on a cluster with
 * nodes of several GPU models, a plan over budget on one model is not made again on another (such a gang, with no
 * model selector, waits there although another choice of nodes would have fitted). Immutable.
 *
 * @param limits per GPU model ({@code nvidia.com/gpu.product}; {@code ""} for nodes without the label)
 */
public record GpuBudget(Map<String, Limit> limits) {
    /** How the verdict of a cluster where the gang would go over its budget begins. */
    public static final String OVER_QUOTA = "over quota: ";

    /** No limit on any model: planning as without queues. */
    public static final GpuBudget NONE = new GpuBudget(Map.of());

    /**
     * At most {@code gpus} more GPUs of one model; {@code why} says where that number comes from, for a waiting
     * gang's reason (e.g. {@code queue team-a: nominal 16 + borrowing limit 4 − 20 in use}).
     */
    public record Limit(long gpus, String why) {
        public Limit {
            Objects.requireNonNull(why, "why");
            gpus = Math.max(0, gpus);
        }
    }

    public GpuBudget {
        limits = Map.copyOf(limits);
    }

    /** Whether no model is limited. */
    public boolean unlimited() {
        return limits.isEmpty();
    }

    /**
     * The first model (by name) whose GPUs in {@code use} go over its limit, as a reason; empty when all fit.
     *
     * @param use GPUs per model a plan would take
     */
    public Optional<String> exceeded(Map<String, Long> use) {
        for (Map.Entry<String, Long> u : new TreeMap<>(use).entrySet()) {
            Limit limit = limits.get(u.getKey());
            if (limit != null && u.getValue() > limit.gpus()) {
                return Optional.of(OVER_QUOTA + "would take " + u.getValue() + " " + model(u.getKey()) + " GPUs here, "
                        + limit.gpus() + " allowed (" + limit.why() + ")");
            }
        }
        return Optional.empty();
    }

    private static String model(String model) {
        return model.isEmpty() ? "unlabelled" : model;
    }
}
