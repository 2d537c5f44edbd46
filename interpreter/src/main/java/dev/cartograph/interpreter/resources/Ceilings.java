package dev.cartograph.interpreter.resources;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The largest amounts Cartograph accepts from an object, chosen so that everything it computes from
 * them fits the {@code long} conversions of {@link ResourceList} (millicores, bytes, devices) with
 * room to add workloads together. An object beyond them is not resolved: its problems name the field.
 * Pure and thread-safe.
 *
 * <ul>
 *   <li>per pod: {@link #MAX_CPU_PER_POD} (1,048,576 cores), {@link #MAX_DEVICES_PER_POD} GPUs
 *       (1,048,576 {@code nvidia.com/gpu}), and {@link #MAX_AMOUNT_PER_POD} (1 Ei, 2<sup>60</sup>) of
 *       memory or of any other resource — each already far beyond any node;</li>
 *   <li>per component instance: {@link #MAX_REPLICAS} pods (1,000,000), counted after multiplying by
 *       the owners' scale;</li>
 *   <li>per instance and per workload, pods × per-pod amounts: {@link #MAX_TOTAL} (2<sup>62</sup>)
 *       millicores, bytes, devices or units, half of a long — 2 pods of 1 Ei memory are fine, 16 are
 *       not.</li>
 * </ul>
 */
public final class Ceilings {
    /** Pods of one component instance (replicas × owners' scale). */
    public static final long MAX_REPLICAS = 1_000_000;
    /** CPU of one pod, in cores. */
    public static final BigDecimal MAX_CPU_PER_POD = BigDecimal.valueOf(1L << 20);
    /** GPUs ({@code nvidia.com/gpu}) of one pod. */
    public static final BigDecimal MAX_DEVICES_PER_POD = BigDecimal.valueOf(1L << 20);
    /** Memory, or any other resource, of one pod, in its base unit: 1 Ei. */
    public static final BigDecimal MAX_AMOUNT_PER_POD = BigDecimal.valueOf(1L << 60);
    /** Millicores, bytes, devices or units of a total over pods. */
    public static final long MAX_TOTAL = 1L << 62;

    private static final Map<String, String> UNITS =
            Map.of(ResourceList.CPU, "millicores", ResourceList.MEMORY, "bytes", ResourceList.GPU, "GPUs");

    private Ceilings() {}

    /** The most of {@code resource} one pod may ask for, in its base unit (cores, bytes, devices). */
    public static BigDecimal perPod(String resource) {
        return switch (resource) {
            case ResourceList.CPU -> MAX_CPU_PER_POD;
            case ResourceList.GPU -> MAX_DEVICES_PER_POD;
            default -> MAX_AMOUNT_PER_POD;
        };
    }

    /** Why one pod cannot ask for {@code amount} of {@code resource}, or empty when it can. */
    public static Optional<String> checkPerPod(String resource, BigDecimal amount) {
        if (amount.signum() < 0) {
            return Optional.of("is negative");
        }
        BigDecimal ceiling = perPod(resource);
        return amount.compareTo(ceiling) > 0
                ? Optional.of("is larger than the ceiling of " + Quantity.format(ceiling) + " per pod")
                : Optional.empty();
    }

    /**
     * What of {@code total} (a sum over pods) is more than Cartograph counts: one sentence per
     * resource beyond {@link #MAX_TOTAL} in its long unit (millicores for CPU), empty when all fit.
     */
    public static List<String> checkTotal(ResourceList total) {
        return checkTotal(total, 1);
    }

    /** As {@link #checkTotal(ResourceList)}, for {@code pods} pods asking for {@code perPod} each. */
    public static List<String> checkTotal(ResourceList perPod, long pods) {
        List<String> beyond = new ArrayList<>();
        BigDecimal max = BigDecimal.valueOf(MAX_TOTAL);
        BigDecimal count = BigDecimal.valueOf(pods);
        perPod.amounts().forEach((resource, amount) -> {
            BigDecimal counted = ResourceList.CPU.equals(resource) ? amount.movePointRight(3) : amount;
            if (counted.abs().multiply(count).compareTo(max) > 0) {
                beyond.add(resource + " " + Quantity.format(counted.multiply(count)) + " "
                        + UNITS.getOrDefault(resource, "units") + " is more than the " + MAX_TOTAL
                        + " Cartograph counts");
            }
        });
        return beyond;
    }
}
