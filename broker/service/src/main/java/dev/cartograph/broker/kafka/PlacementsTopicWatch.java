package dev.cartograph.broker.kafka;

import dev.cartograph.protocol.kafka.TopologyException;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether {@code P.placements} is still the topic this broker has been reading (issue 33): a topic deleted, or deleted
 * and created again (a Kafka restored from nothing, an operator's mistake), is found by its id — a topic made again
 * gets another — and reported, so that the leader writes what it holds again instead of carrying on as if its records
 * were durable. A topic that is gone is created again here (empty, by the one rule for every topic): the broker cannot
 * write without it. Not thread-safe: one scheduler thread asks.
 */
public final class PlacementsTopicWatch {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementsTopicWatch.class);

    private final Topology topology;
    private Uuid known;

    public PlacementsTopicWatch(Topology topology) {
        this.topology = topology;
    }

    /** Looks once: why the topic was lost since the last look, or empty (also when Kafka could not be asked). */
    public Optional<String> check() {
        String topic = topology.placementsTopic();
        try {
            Optional<Uuid> id = topology.placementsTopicId();
            if (id.isEmpty()) {
                topology.ensurePlacements().forEach(shortfall -> LOG.warn("{}", shortfall));
                Uuid before = known;
                known = topology.placementsTopicId().orElse(null);
                if (before != null && before.equals(known)) {
                    return Optional.empty(); // it was there all along: Kafka's metadata had not caught up
                }
                return Optional.of("the placements topic " + topic + " was gone"
                        + (before == null ? "" : " (id " + before + ")") + "; it was created again empty");
            }
            if (known == null) {
                known = id.get();
                return Optional.empty();
            }
            if (known.equals(id.get())) {
                return Optional.empty();
            }
            String reason = "the placements topic " + topic + " was deleted and created again (id " + known + ", now "
                    + id.get() + ")";
            known = id.get();
            return Optional.of(reason);
        } catch (TopologyException | RuntimeException e) {
            LOG.warn("cannot tell whether the placements topic {} is still the one read: {}", topic, e.getMessage());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
