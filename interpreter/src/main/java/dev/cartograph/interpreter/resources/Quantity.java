package dev.cartograph.interpreter.resources;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 32Gi}, {@code 1e3}, {@code 4}) as exact
 * decimals. Written here because the interpreter may depend only on Jackson and jackson-jq
 * (fabric8 has an equivalent {@code Quantity}). Pure and thread-safe.
 */
public final class Quantity {
    private static final Pattern FORMAT =
            Pattern.compile("^([+-]?(?:\\d+\\.?\\d*|\\.\\d+))(?:([eE][+-]?\\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)),
            Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")));

    private Quantity() {
    }

    /** Parses a quantity; empty when the text is not one. */
    public static Optional<BigDecimal> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = FORMAT.matcher(text.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        BigDecimal number = new BigDecimal(m.group(1));
        if (m.group(2) != null) {
            return Optional.of(number.scaleByPowerOfTen(Integer.parseInt(m.group(2).substring(1).replace("+", ""))));
        }
        if (m.group(3) != null) {
            return Optional.of(number.multiply(SUFFIXES.get(m.group(3))));
        }
        return Optional.of(number);
    }

    /** CPU in millicores, rounded up as Kubernetes does. */
    public static long toMillis(BigDecimal value) {
        return value.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** A whole count (bytes, GPUs, pods), rounded up. */
    public static long toWhole(BigDecimal value) {
        return value.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** Canonical text: the shortest plain decimal ({@code 1.5}, {@code 4}, {@code 0.25}). */
    public static String format(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0).toPlainString() : stripped.toPlainString();
    }
}
