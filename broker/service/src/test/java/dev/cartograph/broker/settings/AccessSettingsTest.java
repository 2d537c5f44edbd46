package dev.cartograph.broker.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class AccessSettingsTest {

    @Test
    void knowsTheHubAndTokenFileModesAndNoModeWithoutAuthentication() {
        assertThat(AccessSettings.Mode.of("hub")).isEqualTo(AccessSettings.Mode.HUB);
        assertThat(AccessSettings.Mode.of("Token-File")).isEqualTo(AccessSettings.Mode.TOKEN_FILE);
        assertThatThrownBy(() -> AccessSettings.Mode.of("none"))
                .hasMessage(
                        "cartograph.broker.auth-mode must be hub or token-file, not 'none' (there is no mode without authentication)");
    }

    @Test
    void tokenFileModeNeedsItsFile() {
        assertThatThrownBy(() -> new AccessSettings(
                        AccessSettings.Mode.TOKEN_FILE, Optional.empty(), Duration.ofSeconds(10), 10))
                .hasMessageContaining("needs cartograph.broker.auth-token-file");
        assertThat(new AccessSettings(
                                AccessSettings.Mode.TOKEN_FILE, Optional.of(Path.of("t")), Duration.ofSeconds(10), 10)
                        .tokenFile())
                .hasValue(Path.of("t"));
    }

    @Test
    void refusesACacheThatWouldKeepARevokedPermissionLongerThanFiveMinutes() {
        assertThatThrownBy(
                        () -> new AccessSettings(AccessSettings.Mode.HUB, Optional.empty(), Duration.ofMinutes(6), 10))
                .hasMessageContaining("auth-cache-ttl must be between 0 and 5m");
    }
}
