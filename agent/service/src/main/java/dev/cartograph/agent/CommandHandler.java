package dev.cartograph.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One command at a time: find what this agent created for the placement, decide ({@link ApplyPolicy}), act
 * ({@link KubeApplier}), answer. Command thread only (the command loop calls it); not thread-safe.
 */
final class CommandHandler implements Function<Command, CommandResult> {
    private static final Logger LOG = LoggerFactory.getLogger(CommandHandler.class);

    private final String cluster;
    private final ClusterCache cache;
    private final KubeApplier applier;
    private final Supplier<ApplyPolicy> policy;
    private final PendingChanges changes;
    private final Clock clock;

    /**
     * What this agent last applied per placement (only the object's name), so a Delete read right
     * after its Apply finds the copy even before the informer cache has seen it. Entries leave with
     * their Delete.
     */
    private final Map<String, JsonNode> lastApplied = new HashMap<>();

    /** @param policy the admission policy of the definitions in force (they follow the cluster's Karta objects) */
    CommandHandler(
            String cluster,
            ClusterCache cache,
            KubeApplier applier,
            Supplier<ApplyPolicy> policy,
            PendingChanges changes,
            Clock clock) {
        this.cluster = cluster;
        this.cache = cache;
        this.applier = applier;
        this.policy = policy;
        this.changes = changes;
        this.clock = clock;
    }

    @Override
    public CommandResult apply(Command command) {
        Optional<JsonNode> existing = existing(command);
        existing.filter(o -> command instanceof Command.Delete).ifPresent(CommandHandler::mdc);
        ApplyPolicy.Decision decision = policy.get().decide(command, existing);
        KubeApplier.Outcome outcome = applier.carryOut(decision);
        changes.capacityChanged();
        remember(command, outcome);
        boolean done =
                outcome.outcome() != CommandResult.Outcome.RETRY && outcome.outcome() != CommandResult.Outcome.FAILED;
        (done ? LOG.atInfo() : LOG.atWarn())
                .log(
                        "{} {} epoch {}: {} ({})",
                        verb(command),
                        command.placementId(),
                        command.epoch(),
                        outcome.outcome(),
                        outcome.reason());
        return new CommandResult(
                cluster,
                command.placementId(),
                command.epoch(),
                verb(command),
                outcome.outcome(),
                outcome.reason(),
                clock.instant());
    }

    /** The copy this agent made for the command's placement, if any. */
    private Optional<JsonNode> existing(Command command) {
        Optional<JsonNode> cached = cache.workloads().stream()
                .filter(o -> Ownership.ownedBy(o, command.placementId()))
                .findFirst();
        if (cached.isPresent()) {
            return cached;
        }
        // the cache may not have seen this agent's own last write: read what the command (or the last apply) names
        Optional<JsonNode> named = command instanceof Command.Apply apply
                ? Optional.of(apply.manifest())
                : Optional.ofNullable(lastApplied.get(command.placementId()));
        return named.flatMap(applier::current).filter(o -> Ownership.ownedBy(o, command.placementId()));
    }

    /** The command loop clears these. */
    private static void mdc(JsonNode o) {
        MDC.put("kind", o.path("kind").asText());
        MDC.put("namespace", o.path("metadata").path("namespace").asText());
        MDC.put("name", o.path("metadata").path("name").asText());
    }

    private void remember(Command command, KubeApplier.Outcome outcome) {
        // an apply that timed out (RETRY) or failed may still have created the copy: remember it all the same
        if (command instanceof Command.Apply apply
                && outcome.outcome() != CommandResult.Outcome.REJECTED
                && outcome.outcome() != CommandResult.Outcome.STALE) {
            lastApplied.put(command.placementId(), identity(apply.manifest()));
        } else if (command instanceof Command.Delete && outcome.outcome() == CommandResult.Outcome.DELETED) {
            lastApplied.remove(command.placementId());
        }
    }

    private static String verb(Command command) {
        return command instanceof Command.Apply ? "apply" : "delete";
    }

    /** What names an object (apiVersion, kind, namespace, name): enough to read it back. */
    private static JsonNode identity(JsonNode manifest) {
        var o = Documents.json()
                .createObjectNode()
                .put("apiVersion", manifest.path("apiVersion").asText())
                .put("kind", manifest.path("kind").asText());
        o.putObject("metadata")
                .put("namespace", manifest.path("metadata").path("namespace").asText())
                .put("name", manifest.path("metadata").path("name").asText());
        return o;
    }
}
