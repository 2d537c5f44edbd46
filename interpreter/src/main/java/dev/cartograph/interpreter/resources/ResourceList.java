package dev.cartograph.interpreter.resources;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * Amounts per resource name ({@code cpu}, {@code memory}, {@code nvidia.com/gpu}, any extended
 * resource such as a MIG profile), as exact decimals in base units (cores, bytes, devices),
 * normalized so equal amounts are equal. Immutable; names sorted.
 */
public record ResourceList(Map<String, BigDecimal> amounts) {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String GPU = "nvidia.com/gpu";
    public static final String PODS = "pods";
    public static final ResourceList EMPTY = new ResourceList(Map.of());

    public ResourceList {
        TreeMap<String, BigDecimal> copy = new TreeMap<>();
        amounts.forEach((name, amount) -> {
            if (amount.signum() != 0) {
                copy.put(name, amount.stripTrailingZeros()); // 160.500 and 160.5 are the same amount
            }
        });
        amounts = Collections.unmodifiableMap(copy);
    }

    public BigDecimal get(String name) {
        return amounts.getOrDefault(name, BigDecimal.ZERO);
    }

    /**
     * Whole GPUs, rounded up. Like {@link #cpuMillis()} and {@link #memoryBytes()}, saturates at
     * {@link Long#MAX_VALUE} (or {@link Long#MIN_VALUE}) instead of overflowing; amounts read from
     * resolved objects stay far below that (see {@link Ceilings}).
     */
    public long gpus() {
        return Quantity.toWhole(get(GPU));
    }

    /** CPU in millicores, rounded up; saturates as {@link #gpus()} does. */
    public long cpuMillis() {
        return Quantity.toMillis(get(CPU));
    }

    /** Memory in bytes, rounded up; saturates as {@link #gpus()} does. */
    public long memoryBytes() {
        return Quantity.toWhole(get(MEMORY));
    }

    public boolean isEmpty() {
        return amounts.isEmpty();
    }

    public ResourceList plus(ResourceList other) {
        if (other.isEmpty() || isEmpty()) {
            return isEmpty() ? other : this; // amounts are already normalized: x + 0 is x
        }
        return combine(other, BigDecimal::add);
    }

    public ResourceList minus(ResourceList other) {
        return other.isEmpty() ? this : combine(other, BigDecimal::subtract);
    }

    /** Per resource, the larger of the two. */
    public ResourceList max(ResourceList other) {
        return combine(other, BigDecimal::max);
    }

    public ResourceList times(long factor) {
        TreeMap<String, BigDecimal> result = new TreeMap<>();
        BigDecimal f = BigDecimal.valueOf(factor);
        amounts.forEach((name, amount) -> result.put(name, amount.multiply(f)));
        return new ResourceList(result);
    }

    /** True when every amount here is at most the same amount in {@code other}. */
    public boolean fitsIn(ResourceList other) {
        return amounts.entrySet().stream().allMatch(e -> e.getValue().compareTo(other.get(e.getKey())) <= 0);
    }

    private ResourceList combine(ResourceList other, BinaryOperator<BigDecimal> op) {
        TreeMap<String, BigDecimal> result = new TreeMap<>();
        amounts.forEach((name, amount) -> result.put(name, op.apply(amount, other.get(name))));
        other.amounts.forEach((name, amount) -> {
            if (!amounts.containsKey(name)) {
                result.put(name, op.apply(BigDecimal.ZERO, amount));
            }
        });
        return new ResourceList(result);
    }
}
