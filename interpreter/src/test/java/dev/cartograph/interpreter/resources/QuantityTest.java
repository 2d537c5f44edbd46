package dev.cartograph.interpreter.resources;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Quantity#parse} reads the common forms (digits and a suffix) without its regular
 * expression; these pin that the shortcut gives exactly what the pattern gives, scale included.
 */
@Timeout(30)
class QuantityTest {
    private static final String[] SUFFIXES = {
        "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E", "e3", "E2", "e", "i", "K",
        "Gi ", "mm", ".5", ".", "x", "KiB"
    };

    @Test
    void commonFormsHaveTheValuesKubernetesGivesThem() {
        assertThat(Quantity.parse("500m")).contains(new BigDecimal("0.500")); // 500 × 10^-3
        assertThat(Quantity.parse("32Gi")).contains(BigDecimal.valueOf(34_359_738_368L)); // 32 × 2^30
        assertThat(Quantity.parse("4")).contains(BigDecimal.valueOf(4));
        assertThat(Quantity.parse(" 007 ")).contains(BigDecimal.valueOf(7));
        assertThat(Quantity.parse("1E")).contains(new BigDecimal("1e18")); // E is exa, not an exponent
        assertThat(Quantity.parse("1e3")).contains(new BigDecimal("1e3")); // an exponent: by the pattern
        assertThat(Quantity.parse("1e")).isEmpty();
        assertThat(Quantity.parse("12KiB")).isEmpty();
    }

    @Test
    void theShortcutAgreesWithThePatternOnEveryForm() {
        Random random = new Random(14);
        List<String> texts = new ArrayList<>();
        for (String suffix : SUFFIXES) {
            for (int digits = 1; digits <= 21; digits++) {
                StringBuilder number = new StringBuilder();
                for (int i = 0; i < digits; i++) {
                    number.append((char) ('0' + random.nextInt(10)));
                }
                texts.add(number + suffix);
                texts.add("9".repeat(digits) + suffix); // the largest of each length: 18 digits fit a long, 19 do not
                texts.add("-" + number + suffix);
                texts.add("+" + number + suffix);
            }
            texts.add(suffix);
            texts.add("0" + suffix);
        }
        for (String text : texts) {
            Optional<BigDecimal> expected = Quantity.byPattern(text.strip());
            assertThat(Quantity.parse(text)).as(text).isEqualTo(expected);
        }
    }
}
