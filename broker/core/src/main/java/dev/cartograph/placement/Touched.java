package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

/**
 * A node one planning attempt has taken on: the node as indexed and what the attempt took there, kept
 * as sums per resource rather than a new resource list per pod. Mutable; lives for one attempt.
 */
final class Touched {
    final Slot base;
    private final Map<String, BigDecimal> taken = new HashMap<>(8);
    private long freeGpus;

    Touched(Slot base) {
        this.base = base;
        this.freeGpus = base.freeGpus();
    }

    String name() {
        return base.name();
    }

    long freeGpus() {
        return freeGpus;
    }

    long freeCpu() {
        return Quantity.toMillis(free(ResourceList.CPU));
    }

    boolean fragmented() {
        return freeGpus > 0 && freeGpus < base.allGpus();
    }

    /** What is free of one resource after what was taken. */
    BigDecimal free(String resource) {
        BigDecimal t = taken.get(resource);
        BigDecimal f = base.free().get(resource);
        return t == null ? f : f.subtract(t);
    }

    boolean fits(ResourceList request) {
        for (Map.Entry<String, BigDecimal> e : request.amounts().entrySet()) {
            if (e.getValue().compareTo(free(e.getKey())) > 0) {
                return false;
            }
        }
        return true;
    }

    /** How many more pods of {@code request} ({@code gpus} GPUs each) fit. */
    long room(ResourceList request, long gpus) {
        long most = gpus > 0 ? freeGpus / gpus : Long.MAX_VALUE;
        for (Map.Entry<String, BigDecimal> e : request.amounts().entrySet()) {
            if (e.getValue().signum() > 0) {
                BigDecimal times = free(e.getKey()).divideToIntegralValue(e.getValue());
                most = Math.min(most, times.compareTo(BigDecimal.valueOf(most)) >= 0 ? most : times.longValue());
            }
        }
        return Math.max(0, most);
    }

    /** Takes {@code n} pods of {@code request}, {@code gpus} GPUs each. */
    void take(ResourceList request, long n, long gpus) {
        BigDecimal times = BigDecimal.valueOf(n);
        for (Map.Entry<String, BigDecimal> e : request.amounts().entrySet()) {
            taken.merge(e.getKey(), n == 1 ? e.getValue() : e.getValue().multiply(times), BigDecimal::add);
        }
        freeGpus -= gpus * n;
    }
}
