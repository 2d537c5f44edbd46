package dev.cartograph.agent.kafka;

import dev.cartograph.protocol.Command;
import org.slf4j.MDC;

/**
 * The MDC of one command while it is handled: {@code cluster}, {@code placement}, and for an apply
 * {@code kind}/{@code namespace}/{@code name} (the handler may add those for a delete); closing
 * removes them all. One thread.
 */
final class CommandMdc implements AutoCloseable {
    private static final String[] KEYS = {"cluster", "placement", "kind", "namespace", "name"};

    private CommandMdc() {}

    static CommandMdc of(String cluster, Command command) {
        MDC.put("cluster", cluster);
        MDC.put("placement", command.placementId());
        if (command instanceof Command.Apply apply) {
            var manifest = apply.manifest();
            MDC.put("kind", manifest.path("kind").asText());
            MDC.put("namespace", manifest.path("metadata").path("namespace").asText());
            MDC.put("name", manifest.path("metadata").path("name").asText());
        }
        return new CommandMdc();
    }

    @Override
    public void close() {
        for (String key : KEYS) {
            MDC.remove(key);
        }
    }
}
