package dev.cartograph.fleet;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent incarnations of one cluster in the order this broker first read a summary of theirs: the order they
 * started in, as their summaries share one partition. A restarted agent's summaries win over the old one's from its
 * first; a summary of an incarnation first read before the one held is an older agent's (one paused, resuming) and is
 * stale. Nothing here reads the agents' clocks: a restarted agent whose clock runs minutes behind is taken at once
 * (issue 34; it used to be ignored until its heartbeats passed its predecessor's). Keeps the newest
 * {@value #REMEMBERED}. Not thread-safe: the coordinator's.
 */
final class Incarnations {
    static final int REMEMBERED = 16;

    private long next;
    private final Map<String, Long> firstRead = new LinkedHashMap<>(REMEMBERED, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBERED;
        }
    };

    /** Whether {@code incarnation} was first read before {@code held}: an older agent's. */
    boolean older(String incarnation, String held) {
        Long candidate = firstRead.get(incarnation);
        Long current = firstRead.get(held);
        return candidate != null && current != null && candidate < current;
    }

    /** Notes a summary of {@code incarnation} read now. */
    void read(String incarnation) {
        firstRead.computeIfAbsent(incarnation, i -> next++);
    }
}
