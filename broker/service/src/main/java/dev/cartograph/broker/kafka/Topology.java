package dev.cartograph.broker.kafka;

import dev.cartograph.protocol.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the shared topics when they are missing: summaries and placements compacted, results by retention. */
public final class Topology {
    private Topology() {
    }

    public static void ensure(Map<String, String> kafka, Topics topics) throws InterruptedException, ExecutionException,
            java.util.concurrent.TimeoutException {
        try (Admin admin = Admin.create(new HashMap<>(kafka))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String compacted : List.of(topics.clusters(), topics.workloads(), topics.placements())) {
                if (!existing.contains(compacted)) {
                    missing.add(new NewTopic(compacted, 1, (short) -1).configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
                            TopicConfig.CLEANUP_POLICY_COMPACT)));
                }
            }
            if (!existing.contains(topics.events())) {
                missing.add(new NewTopic(topics.events(), 1, (short) -1));
            }
            if (missing.isEmpty()) {
                return;
            }
            try {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        }
    }
}
