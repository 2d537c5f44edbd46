package dev.cartograph.local.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples the member stores every {@code interval} for the whole run and records every placement seen with
 * pods bound and not finished on two clusters in one sample (the broker never moves a started gang, so a
 * sighting is a gang running twice, not a move caught half-way). Thread-safe; its own daemon thread.
 */
final class DoubleRunWatch implements AutoCloseable {
    /** A placement seen running on several clusters, and when first seen (ms since the suite's start). */
    record Sighting(String placementId, Set<String> clusters, long atMillis) {}

    private final MemberStores stores;
    private final List<String> clusters;
    private final Duration interval;
    private final long t0;
    private final Map<String, Sighting> sightings = new ConcurrentHashMap<>();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong failedSamples = new AtomicLong();
    private final Thread thread;
    private volatile boolean stop;

    DoubleRunWatch(MemberStores stores, List<String> clusters, Duration interval, long t0) {
        this.stores = stores;
        this.clusters = clusters;
        this.interval = interval;
        this.t0 = t0;
        this.thread = new Thread(this::run, "double-run-watch");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        while (!stop) {
            try {
                sample();
                samples.incrementAndGet();
            } catch (RuntimeException e) {
                failedSamples.incrementAndGet(); // a mock server busy for a moment; the next sample reads again
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample() {
        Map<String, Set<String>> where = new HashMap<>();
        for (String cluster : clusters) {
            for (String placement : stores.running(cluster)) {
                where.computeIfAbsent(placement, k -> new TreeSet<>()).add(cluster);
            }
        }
        long at = (System.nanoTime() - t0) / 1_000_000;
        where.forEach((placement, on) -> {
            if (on.size() > 1) {
                sightings.putIfAbsent(placement, new Sighting(placement, on, at));
            }
        });
    }

    List<Sighting> sightings() {
        return new ArrayList<>(sightings.values());
    }

    long samples() {
        return samples.get();
    }

    long failedSamples() {
        return failedSamples.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join(5_000);
    }
}
