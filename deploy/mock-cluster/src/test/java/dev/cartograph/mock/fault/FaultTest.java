package dev.cartograph.mock.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The answers are written out by hand from kube-apiserver's sources: {@code maxinflight.go} {@code tooManyRequests}
 * with Go's {@code http.Error}, and {@code apierrors.NewTooManyRequests}, {@code NewInternalError},
 * {@code NewServiceUnavailable}, {@code NewTimeoutError} as {@code responsewriters.ErrorNegotiated} writes them.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FaultTest {
    @Test
    void aPriorityAndFairnessThrottleIsPlainTextWithRetryAfterAndNoStatus() {
        Fault.Answer answer = Fault.throttle(3).answer();

        assertThat(answer.code()).isEqualTo(429);
        assertThat(answer.headers())
                .isEqualTo(Map.of(
                        "Retry-After", "3",
                        "Content-Type", "text/plain; charset=utf-8",
                        "X-Content-Type-Options", "nosniff"));
        assertThat(answer.body()).isEqualTo("Too many requests, please try again later.\n");
    }

    @Test
    void aStorageThrottleIsAStatusWithRetryAfterSecondsInDetailsAndHeader() {
        Fault.Answer answer =
                Fault.throttleWithStatus(1, "storage is (re)initializing").answer();

        assertThat(answer.code()).isEqualTo(429);
        assertThat(answer.headers())
                .containsEntry("Retry-After", "1")
                .containsEntry("Content-Type", "application/json");
        assertThat(answer.body())
                .isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"storage is (re)initializing\",\"reason\":\"TooManyRequests\","
                        + "\"details\":{\"retryAfterSeconds\":1},\"code\":429}");
    }

    @Test
    void serverErrorsAreStatusesAsTheApiMachineryBuildsThem() {
        assertThat(Fault.internalError("etcd is gone").answer().body())
                .isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"Internal error occurred: etcd is gone\",\"reason\":\"InternalError\","
                        + "\"details\":{\"causes\":[{\"message\":\"etcd is gone\"}]},\"code\":500}");
        Fault.Answer unavailable =
                Fault.serviceUnavailable("etcdserver: leader changed").answer();
        assertThat(unavailable.code()).isEqualTo(503);
        assertThat(unavailable.headers()).doesNotContainKey("Retry-After");
        assertThat(unavailable.body())
                .isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"etcdserver: leader changed\",\"reason\":\"ServiceUnavailable\",\"code\":503}");
        Fault.Answer timeout = Fault.timeout(
                        "request did not complete within requested timeout - context deadline exceeded", 2)
                .answer();
        assertThat(timeout.code()).isEqualTo(504);
        assertThat(timeout.headers()).containsEntry("Retry-After", "2");
        assertThat(timeout.body())
                .isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"Timeout: request did not complete within requested timeout - context deadline"
                        + " exceeded\",\"reason\":\"Timeout\",\"details\":{\"retryAfterSeconds\":2},\"code\":504}");
    }

    @Test
    void nonsenseIsRefusedWhenTheFaultIsMade() {
        assertThatThrownBy(() -> Fault.throttle(0)).hasMessageContaining("at least 1 second");
        assertThatThrownBy(() -> Fault.error(302, "Found", "moved")).hasMessageContaining("400 to 599");
        assertThatThrownBy(() -> Fault.delay(Duration.ZERO)).hasMessageContaining("positive");
        assertThatThrownBy(() -> Fault.staleList(0)).hasMessageContaining("at least 1 change");
        assertThatThrownBy(() -> FaultRule.on(RequestMatch.verbs("get", "list"), Fault.staleList(1)))
                .hasMessageContaining("only to lists");
    }
}
