package dev.cartograph.usage;

import java.util.Objects;

/**
 * The GPU time one queue or namespace ({@code group}) used of one GPU model over some hours. Kept in
 * GPU-milliseconds so that sums are exact; GPU-seconds and GPU-hours are read from it. Immutable.
 */
public record UsageRow(String group, String gpuModel, long gpuMillis) {
    public UsageRow {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(gpuModel, "gpuModel");
        if (gpuMillis < 0) {
            throw new IllegalArgumentException("gpuMillis < 0: " + gpuMillis);
        }
    }

    public double gpuSeconds() {
        return gpuMillis / 1_000.0;
    }

    public double gpuHours() {
        return gpuMillis / 3_600_000.0;
    }
}
