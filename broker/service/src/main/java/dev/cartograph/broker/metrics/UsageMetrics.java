package dev.cartograph.broker.metrics;

import dev.cartograph.broker.usage.UsageObserver;
import dev.cartograph.usage.UsageKey;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GPU time as the leader counts it: {@code cartograph_queue_gpu_seconds_total{queue,namespace,gpu_model}}, raised by
 * exactly what the usage ledger adds (so {@code increase()} over an hour is that hour's GPU-seconds). Only the leader
 * counts; a new leader's counters start at 0, as any restarted counter. Thread-safe.
 */
public final class UsageMetrics implements UsageObserver {
    private final MeterRegistry registry;
    private final Map<UsageKey, Counter> counters = new ConcurrentHashMap<>();

    public UsageMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void added(Map<UsageKey, Long> gpuMillis) {
        gpuMillis.forEach(
                (key, ms) -> counters.computeIfAbsent(key, this::counter).increment(ms / 1_000.0));
    }

    private Counter counter(UsageKey key) {
        return Counter.builder("cartograph.queue.gpu.seconds")
                .description("GPU-seconds held by placed gangs, per queue, hub namespace and GPU model (leader only)")
                .tag("queue", key.queue())
                .tag("namespace", key.namespace())
                .tag("gpu_model", key.gpuModel().isEmpty() ? ViewMetrics.NO_MODEL : key.gpuModel())
                .register(registry);
    }
}
