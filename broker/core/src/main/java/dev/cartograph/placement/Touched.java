package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;
import java.util.Map;

/**
 * A node one planning attempt has taken on: the node as indexed and what the attempt took there —
 * what is left in {@link Units} while every amount has that form, and the takes themselves, from
 * which exact decimals are worked out when needed. Mutable; lives for one attempt.
 */
final class Touched {
    final Slot base;
    private Need[] needs = new Need[2];
    private long[] counts = new long[2];
    private int takes;
    private long[] left;
    private long freeGpus;

    Touched(Slot base) {
        this.base = base;
        this.left = base.units();
        this.freeGpus = base.freeGpus();
    }

    String name() {
        return base.name();
    }

    long freeGpus() {
        return freeGpus;
    }

    long freeCpu() {
        return left != null ? left[1] : Quantity.toMillis(free(ResourceList.CPU));
    }

    boolean fragmented() {
        return freeGpus > 0 && freeGpus < base.allGpus();
    }

    /** What is free of one resource after what was taken. */
    BigDecimal free(String resource) {
        BigDecimal f = base.free().get(resource);
        for (int i = 0; i < takes; i++) {
            BigDecimal each = needs[i].request().get(resource);
            if (each.signum() != 0) {
                f = f.subtract(each.multiply(BigDecimal.valueOf(counts[i])));
            }
        }
        return f;
    }

    boolean fits(Need need) {
        long[] asked = need.exact();
        if (left != null && asked != null) {
            for (int i = 0; i < asked.length; i++) {
                if (asked[i] > left[i]) {
                    return false;
                }
            }
            return true;
        }
        for (Map.Entry<String, BigDecimal> e : need.request().amounts().entrySet()) {
            if (e.getValue().compareTo(free(e.getKey())) > 0) {
                return false;
            }
        }
        return true;
    }

    /** How many more pods of {@code need} fit. */
    long room(Need need) {
        long most = need.gpus() > 0 ? freeGpus / need.gpus() : Long.MAX_VALUE;
        long[] asked = need.exact();
        if (left != null && asked != null) {
            for (int i = 0; i < asked.length; i++) {
                if (asked[i] > 0) {
                    most = Math.min(most, left[i] / asked[i]);
                }
            }
            return Math.max(0, most);
        }
        for (Map.Entry<String, BigDecimal> e : need.request().amounts().entrySet()) {
            BigDecimal each = e.getValue();
            if (each.signum() > 0) {
                BigDecimal times = free(e.getKey()).divideToIntegralValue(each);
                most = times.compareTo(BigDecimal.valueOf(most)) >= 0 ? most : times.longValue();
            }
        }
        return Math.max(0, most);
    }

    /** Takes {@code n} pods of {@code need}. */
    void take(Need need, long n) {
        if (takes == needs.length) {
            needs = java.util.Arrays.copyOf(needs, takes * 2);
            counts = java.util.Arrays.copyOf(counts, takes * 2);
        }
        needs[takes] = need;
        counts[takes++] = n;
        long[] asked = need.exact();
        if (left != null && asked != null) {
            for (int i = 0; i < asked.length; i++) {
                left[i] -= asked[i] * n;
            }
        } else {
            left = null;
        }
        freeGpus -= need.gpus() * n;
    }
}
