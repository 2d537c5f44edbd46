package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;

/**
 * The four amounts nearly every pod and node have — GPUs, CPU in millicores, memory in bytes, pod
 * slots — as exact whole numbers, so the planner can compare them without decimal arithmetic. An
 * amount that is not a whole number of its unit (or too large) has no such form, and the planner
 * falls back to exact decimals. Pure.
 */
final class Units {
    private static final String[] NAMES = {ResourceList.GPU, ResourceList.CPU, ResourceList.MEMORY, ResourceList.PODS};

    private Units() {}

    /** Amount {@code i} (0 GPUs, 1 CPU millicores, 2 memory bytes, 3 pods) as a quantity. */
    static String format(int i, long amount) {
        BigDecimal v = i == 1 ? BigDecimal.valueOf(amount).movePointLeft(3) : BigDecimal.valueOf(amount);
        return dev.cartograph.interpreter.resources.Quantity.format(v);
    }

    /**
     * The four amounts of {@code r}, or null when one is not a whole number of its unit; with
     * {@code only}, null also when {@code r} names any other resource (a request that needs more than
     * the four compared).
     */
    static long[] of(ResourceList r, boolean only) {
        if (only && r.amounts().size() > NAMES.length) {
            return null;
        }
        int named = 0;
        long[] out = new long[NAMES.length];
        for (int i = 0; i < NAMES.length; i++) {
            BigDecimal v = r.amounts().get(NAMES[i]);
            if (v == null) {
                continue;
            }
            named++;
            try {
                out[i] = (i == 1 ? v.movePointRight(3) : v).longValueExact();
            } catch (ArithmeticException notWhole) {
                return null;
            }
        }
        return only && named != r.amounts().size() ? null : out;
    }
}
