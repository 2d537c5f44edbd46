package dev.cartograph.agent.kube;

import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * How the agent writes to its member cluster: each call through a retry with exponential backoff (transient
 * failures only, {@link ApiAnswer#isTransient}) inside one circuit breaker shared by every write, so a sick API
 * server is not hammered; and what a call that still failed means for a command. Thread-safe.
 */
final class Writes {
    private final int attempts;
    private final Retry retry;
    private final CircuitBreaker breaker;

    /** @param attempts tries per call, the first included */
    Writes(Duration firstBackoff, int attempts) {
        this.attempts = attempts;
        this.retry = Retry.of(
                "kube-writes",
                RetryConfig.custom()
                        .maxAttempts(attempts)
                        .intervalFunction(IntervalFunction.ofExponentialBackoff(firstBackoff, 2.0))
                        .retryOnException(ApiAnswer::isTransient)
                        .build());
        this.breaker = CircuitBreaker.of(
                "kube-writes",
                CircuitBreakerConfig.custom()
                        .failureRateThreshold(50)
                        .slidingWindowSize(20)
                        .minimumNumberOfCalls(10)
                        .waitDurationInOpenState(Duration.ofSeconds(30))
                        .recordException(ApiAnswer::isTransient)
                        .build());
    }

    /** Runs {@code call}, again while it fails transiently; throws what it threw last. */
    <T> T call(Supplier<T> call) {
        return Retry.decorateSupplier(retry, CircuitBreaker.decorateSupplier(breaker, call))
                .get();
    }

    void run(Runnable action) {
        call(() -> {
            action.run();
            return null;
        });
    }

    /**
     * What a call that ended in {@code e} means: RETRY while the circuit is open or the failure was transient, FAILED
     * for the API server's refusals. {@code e}'s text is used only as {@code detail} allows: a write of a Secret must
     * not carry its data into a reason.
     */
    KubeApplier.Outcome outcome(RuntimeException e, boolean detail) {
        if (e instanceof CallNotPermittedException) {
            return new KubeApplier.Outcome(
                    CommandResult.Outcome.RETRY,
                    "not written: the API server keeps failing, so writes pause for up to 30s (circuit open)");
        }
        if (e instanceof KubernetesClientException k) {
            return ApiAnswer.of(k, attempts);
        }
        return new KubeApplier.Outcome(
                CommandResult.Outcome.RETRY,
                "not known to be written: "
                        + (detail ? e.toString() : e.getClass().getName()));
    }
}
