package dev.cartograph.protocol;

import java.util.Objects;

/**
 * A catalog kind an agent means to watch on its cluster and cannot for now: the API server did not answer its
 * discovery or its list (429, 5xx, no answer), or its watch stopped. The agent asks again on its own schedule; while
 * a kind is listed here, its copies may be missing from the cluster's summaries without being gone. Immutable.
 *
 * @param apiVersion {@code group/version} ({@code v1} for the core group)
 * @param reason     why, in a few words with the API server's answer; at most {@value #MAX_REASON} characters (a
 *                   longer one is cut)
 */
public record UnwatchedKind(String apiVersion, String kind, String reason) {
    public static final int MAX_REASON = 300;

    public UnwatchedKind {
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            throw new IllegalArgumentException("an unwatched kind needs its apiVersion and kind");
        }
        if (reason.length() > MAX_REASON) {
            reason = reason.substring(0, MAX_REASON - 1) + "…";
        }
    }
}
