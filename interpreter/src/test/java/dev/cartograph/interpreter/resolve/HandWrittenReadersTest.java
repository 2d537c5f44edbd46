package dev.cartograph.interpreter.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Resolving reads timestamps and path steps with small hand-written readers
 * instead of the JDK's general ones (which were a large share of its time); each must give exactly
 * what the general one gives, which these compare on generated text.
 */
@Timeout(30)
class HandWrittenReadersTest {
    private static final Random RANDOM = new Random(14);

    @Test
    void kubernetesTimestampsAreReadAsInstantParseReadsThem() {
        // hand count: 2024 is a leap year; 1,709,251,199 s from 1970-01-01 to 2024-02-29T23:59:59Z
        assertThat(Resolver.instant("2024-02-29T23:59:59Z")).contains(Instant.ofEpochSecond(1_709_251_199L));
        assertThat(Resolver.instant("2023-02-29T00:00:00Z")).isEmpty(); // not a leap year
        assertThat(Resolver.instant("yesterday")).isEmpty();
        for (int i = 0; i < 20_000; i++) {
            String text = "%04d-%02d-%02dT%02d:%02d:%02dZ"
                    .formatted(
                            RANDOM.nextInt(10_000),
                            RANDOM.nextInt(14),
                            RANDOM.nextInt(33),
                            RANDOM.nextInt(26),
                            RANDOM.nextInt(61),
                            RANDOM.nextInt(62));
            assertThat(Resolver.instant(text)).as(text).isEqualTo(byInstantParse(text));
        }
        for (String text : new String[] {
            "2024-06-30T24:00:00Z", // the end of the day: the general parser reads it as the next midnight
            "2016-12-31T23:59:60Z", // a leap second
            "2024-01-01T00:00:00.5Z",
            "2024-01-01T00:00:00+01:00",
            "2024-01-01t00:00:00Z",
            "2024-01-01T00:00:0xZ",
            "-024-01-01T00:00:00Z",
            "+2024-01-01T00:00:00Z"
        }) {
            assertThat(Resolver.instant(text)).as(text).isEqualTo(byInstantParse(text));
        }
    }

    @Test
    void pathStepsAreIdentifiersExactlyWhenThePatternSaysSo() {
        Pattern identifier = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
        char[] alphabet = {'a', 'Z', '_', '0', '9', '-', '.', '/', ' ', 'é', '[', '"'};
        for (int i = 0; i < 10_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int k = RANDOM.nextInt(6); k > 0; k--) {
                text.append(alphabet[RANDOM.nextInt(alphabet.length)]);
            }
            String key = text.toString();
            assertThat(ObjectPaths.isIdentifier(key))
                    .as(key)
                    .isEqualTo(identifier.matcher(key).matches());
        }
    }

    private static Optional<Instant> byInstantParse(String text) {
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
