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
 *
 * <p>Exact decimals cost time in proportion to their digits, so text that is not a plausible
 * quantity is refused before it becomes one: more than {@value #MAX_TEXT} characters, a value
 * whose decimal exponent lies outside ±{@value #MAX_EXPONENT} ({@code 1e999999999} would take
 * minutes to add to anything), or more than {@value #MAX_EXPONENT} decimal places. Sums of
 * accepted quantities therefore always {@link #format} to text that parses again. Whether an
 * amount is sane for a pod is {@link Ceilings}' question.
 */
public final class Quantity {
    private static final Pattern FORMAT = Pattern.compile(
            "^([+-]?(?:\\d+\\.?\\d*|\\.\\d+))(?:([eE][+-]?\\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$");
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

    /** The longest text read as a quantity. */
    public static final int MAX_TEXT = 128;
    /** The largest decimal exponent, either way, of a quantity's value, and the most decimal places. */
    public static final int MAX_EXPONENT = 64;

    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);

    private Quantity() {}

    /** Parses a quantity; empty when the text is not one, or not a plausible one (see above). */
    public static Optional<BigDecimal> parse(String text) {
        if (text == null || text.length() > MAX_TEXT) {
            return Optional.empty();
        }
        String stripped = text.strip();
        BigDecimal simple = simple(stripped);
        return simple != null ? plausible(simple) : byPattern(stripped);
    }

    /** {@link #parse} of stripped text by the general pattern alone (tests compare the two). */
    static Optional<BigDecimal> byPattern(String stripped) {
        Matcher m = FORMAT.matcher(stripped);
        if (!m.matches()) {
            return Optional.empty();
        }
        BigDecimal number = new BigDecimal(m.group(1));
        if (m.group(2) != null) {
            String exponent = m.group(2).substring(1).replace("+", "");
            if (exponent.replace("-", "").length() > 3) {
                return Optional.empty();
            }
            number = number.scaleByPowerOfTen(Integer.parseInt(exponent));
        } else if (m.group(3) != null) {
            number = number.multiply(SUFFIXES.get(m.group(3)));
        }
        return plausible(number);
    }

    /**
     * The common forms, read without the regular expression: up to 18 digits with an optional
     * suffix ({@code 8}, {@code 500m}, {@code 32Gi}). The same value as {@link #FORMAT} gives;
     * null for any other text, which then goes through it.
     */
    private static BigDecimal simple(String text) {
        int digits = 0;
        while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9') {
            digits++;
        }
        if (digits == 0 || digits > 18) {
            return null;
        }
        BigDecimal number = BigDecimal.valueOf(Long.parseLong(text, 0, digits, 10));
        if (digits == text.length()) {
            return number;
        }
        BigDecimal multiplier = text.length() - digits <= 2 ? SUFFIXES.get(text.substring(digits)) : null;
        return multiplier == null ? null : number.multiply(multiplier);
    }

    private static Optional<BigDecimal> plausible(BigDecimal number) {
        if (number.signum() == 0) {
            return Optional.of(BigDecimal.ZERO);
        }
        int exponent = number.precision() - number.scale() - 1;
        boolean plausible = Math.abs(exponent) <= MAX_EXPONENT
                && number.stripTrailingZeros().scale() <= MAX_EXPONENT;
        return plausible ? Optional.of(number) : Optional.empty();
    }

    /**
     * CPU in millicores, rounded up as Kubernetes does; saturates at {@link Long#MAX_VALUE} and
     * {@link Long#MIN_VALUE} for amounts beyond a long (which resolved requests never reach, see
     * {@link Ceilings}).
     */
    public static long toMillis(BigDecimal value) {
        return toWhole(value.movePointRight(3));
    }

    /** A whole count (bytes, GPUs, pods), rounded up; saturates like {@link #toMillis}. */
    public static long toWhole(BigDecimal value) {
        if (value.compareTo(LONG_MAX) >= 0) {
            return Long.MAX_VALUE;
        }
        if (value.compareTo(LONG_MIN) <= 0) {
            return Long.MIN_VALUE;
        }
        if (value.abs().compareTo(BigDecimal.ONE) < 0) {
            return value.signum() > 0 ? 1 : 0; // without rescaling: 1e-60 would need a 60-digit divisor
        }
        return value.setScale(0, RoundingMode.CEILING).longValue();
    }

    /** Canonical text: the shortest plain decimal ({@code 1.5}, {@code 4}, {@code 0.25}). */
    public static String format(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0).toPlainString() : stripped.toPlainString();
    }
}
