package dev.cartograph.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class AccessFilterTest {

    @Test
    void onlyTheHealthProbesAndTheOpenApiDocumentAreOpen() {
        assertThat(AccessFilter.open("/health")).isTrue();
        assertThat(AccessFilter.open("/health/")).isTrue();
        assertThat(AccessFilter.open("/health/liveness")).isTrue();
        assertThat(AccessFilter.open("/health/readiness")).isTrue();
        assertThat(AccessFilter.open("/openapi/cartograph-broker-v1.yml")).isTrue();
        assertThat(AccessFilter.open("/api/v1/fleet")).isFalse();
        assertThat(AccessFilter.open("/api/v1/fleet/domains")).isFalse();
        assertThat(AccessFilter.open("/healthz")).isFalse();
        assertThat(AccessFilter.open("/health/anything-else")).isFalse();
        assertThat(AccessFilter.open("/routes")).isFalse();
        assertThat(AccessFilter.open("/metrics")).isFalse();
    }

    @Test
    void aPathThatWalksOutOfAnOpenOneIsNotOpen() {
        assertThat(AccessFilter.open("/openapi/../api/v1/workloads")).isFalse();
        assertThat(AccessFilter.open("/openapi/%2e%2e/api/v1/workloads")).isFalse();
        assertThat(AccessFilter.open("/openapi//api/v1/workloads")).isFalse();
        assertThat(AccessFilter.open("/health/./")).isFalse();
    }
}
