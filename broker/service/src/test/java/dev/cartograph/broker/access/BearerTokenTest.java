package dev.cartograph.broker.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class BearerTokenTest {

    @Test
    void readsTheTokenOfABearerAuthorizationHeaderWhateverTheSchemesCase() {
        assertThat(BearerToken.fromHeader("Bearer abc"))
                .hasValueSatisfying(t -> assertThat(t.reveal()).isEqualTo("abc"));
        assertThat(BearerToken.fromHeader("bearer  abc "))
                .hasValueSatisfying(t -> assertThat(t.reveal()).isEqualTo("abc"));
    }

    @Test
    void findsNoTokenInOtherSchemesOrEmptyHeaders() {
        assertThat(BearerToken.fromHeader(null)).isEmpty();
        assertThat(BearerToken.fromHeader("Basic YWxpY2U6cHc=")).isEmpty();
        assertThat(BearerToken.fromHeader("Bearer ")).isEmpty();
        assertThat(BearerToken.fromHeader("Bearer")).isEmpty();
        assertThat(BearerToken.fromHeader("Bearerabc")).isEmpty();
    }

    @Test
    void isKnownByItsSha256AndNeverShowsItsText() {
        BearerToken t = new BearerToken("abc");
        // SHA-256("abc"), FIPS 180-2 appendix B.1
        assertThat(t.hash()).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(t.toString()).doesNotContain("abc\"").isEqualTo("BearerToken[sha256:ba7816bf8f01…]");
    }

    @Test
    void matchesOnlyTheSameText() {
        assertThat(new BearerToken("s3cret").matches(new BearerToken("s3cret"))).isTrue();
        assertThat(new BearerToken("s3cret").matches(new BearerToken("s3cre"))).isFalse();
        assertThat(new BearerToken("s3cret")).isEqualTo(new BearerToken("s3cret"));
    }

    @Test
    void refusesAnEmptyToken() {
        assertThatThrownBy(() -> new BearerToken(" ")).hasMessage("a bearer token cannot be empty");
    }
}
