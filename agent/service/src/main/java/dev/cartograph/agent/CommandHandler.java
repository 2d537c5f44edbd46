package dev.cartograph.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.DependencySync;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.agent.order.CommandOrder;
import dev.cartograph.agent.order.Deletions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.WorkloadKey;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One command at a time: refuse one read again after a later delete of its placement ({@link CommandOrder}), find
 * what this agent created for the placement, decide ({@link ApplyPolicy}), act ({@link KubeApplier} for the workload,
 * {@link DependencySync} for what its pods need), answer. A delete is recorded durably before anything is deleted.
 * Command thread only (the command loop calls it); not thread-safe.
 */
final class CommandHandler implements Function<Command, CommandResult> {
    private static final Logger LOG = LoggerFactory.getLogger(CommandHandler.class);

    private final String cluster;
    private final ClusterCache cache;
    private final KubeApplier applier;
    private final DependencySync dependencies;
    private final Supplier<ApplyPolicy> policy;
    private final PendingChanges changes;
    private final Clock clock;
    private final AgentObserver observer;
    private final CommandOrder order;

    /**
     * With the deletes carried out remembered in this process's memory only (tests of what does not outlive it).
     *
     * @param policy the admission policy of the definitions in force (they follow the cluster's Karta objects)
     */
    CommandHandler(
            String cluster,
            ClusterCache cache,
            KubeApplier applier,
            Supplier<ApplyPolicy> policy,
            PendingChanges changes,
            Clock clock) {
        this(
                cluster,
                cache,
                applier,
                policy,
                changes,
                clock,
                AgentObserver.NONE,
                new CommandOrder(CommandOrder.inMemory(), Deletions.Limits.DEFAULT, clock));
    }

    /**
     * @param observer told each command's outcome and how long it took (metrics)
     * @param order    what refuses commands read again, and records each delete before it is carried out
     */
    CommandHandler(
            String cluster,
            ClusterCache cache,
            KubeApplier applier,
            Supplier<ApplyPolicy> policy,
            PendingChanges changes,
            Clock clock,
            AgentObserver observer,
            CommandOrder order) {
        this.observer = observer;
        this.order = order;
        this.cluster = cluster;
        this.cache = cache;
        this.applier = applier;
        this.dependencies = applier.dependencies();
        this.policy = policy;
        this.changes = changes;
        this.clock = clock;
    }

    @Override
    public CommandResult apply(Command command) {
        long started = observer.started();
        KubeApplier.Outcome outcome = misaddressed(command)
                .map(reason -> new KubeApplier.Outcome(CommandResult.Outcome.REJECTED, reason))
                .orElseGet(() -> inOrder(command));
        changes.capacityChanged();
        observer.command(verb(command), outcome.outcome(), started);
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

    /** Carries the command out unless it is ordered before a delete remembered ({@link CommandOrder#check}). */
    private KubeApplier.Outcome inOrder(Command command) {
        CommandOrder.Verdict verdict = order.check(command);
        if (verdict instanceof CommandOrder.Verdict.Stale stale) {
            return new KubeApplier.Outcome(CommandResult.Outcome.STALE, stale.reason());
        }
        if (verdict instanceof CommandOrder.Verdict.Unknown unknown) {
            return new KubeApplier.Outcome(CommandResult.Outcome.RETRY, unknown.reason());
        }
        return decideAndAct(command);
    }

    /**
     * Reads what the cluster holds for the command's placement, decides, acts. A copy that cannot be read is not taken
     * for absent: the command is RETRY (a Delete answered DELETED would let the broker release the hub object while
     * the copy runs on).
     */
    private KubeApplier.Outcome decideAndAct(Command command) {
        Optional<String> unwatched = unwatched(command);
        if (unwatched.isPresent()) { // its copy can be neither found nor ruled out; an Apply has no resource name
            return new KubeApplier.Outcome(
                    CommandResult.Outcome.RETRY, "nothing done: " + unwatched.get() + "; asked again");
        }
        Optional<JsonNode> named = named(command);
        Optional<JsonNode> existing;
        try {
            existing = named.flatMap(this::current).filter(o -> Ownership.ownedBy(o, command.placementId()));
        } catch (RuntimeException e) {
            return KubeApplier.unread(named.orElseThrow(), e);
        }
        existing.filter(o -> command instanceof Command.Delete).ifPresent(CommandHandler::mdc);
        return carryOut(command, policy.get().decide(command, existing));
    }

    /**
     * Acts on the decision. An apply carried out (create or update) first creates or updates every dependency,
     * releases again what it added when the workload is not applied, and releases the dependencies the placement no
     * longer lists once it is. A delete is recorded ({@link CommandOrder#remember}) before its copy is deleted, or
     * found not there; one that leaves no copy releases every dependency labelled for the placement.
     */
    private KubeApplier.Outcome carryOut(Command command, ApplyPolicy.Decision decision) {
        if (command instanceof Command.Apply apply
                && (decision instanceof ApplyPolicy.Decision.Create
                        || decision instanceof ApplyPolicy.Decision.Update)) {
            String namespace =
                    apply.manifest().path("metadata").path("namespace").asText();
            List<JsonNode> listed = apply.dependencies();
            DependencySync.Use use = dependencies.use(command.placementId(), listed);
            if (use.failure().isPresent()) {
                return use.failure().get();
            }
            KubeApplier.Outcome applied = applier.carryOut(decision);
            if (applied.outcome() != CommandResult.Outcome.APPLIED) {
                dependencies.undo(command.placementId(), use);
                return applied;
            }
            return dependencies
                    .releaseDropped(command.placementId(), namespace, listed)
                    .map(f -> new KubeApplier.Outcome(
                            CommandResult.Outcome.APPLIED,
                            applied.reason() + "; " + f.reason() + " (released at the placement's next command)"))
                    .orElse(applied);
        }
        if (command instanceof Command.Delete delete
                && (decision instanceof ApplyPolicy.Decision.Delete
                        || decision instanceof ApplyPolicy.Decision.NothingToDelete)) {
            // durable before it is acted on: no crash leaves the copy deleted and the delete forgotten
            Optional<String> unrecorded = order.remember(delete);
            if (unrecorded.isPresent()) {
                return new KubeApplier.Outcome(CommandResult.Outcome.RETRY, unrecorded.get());
            }
        }
        KubeApplier.Outcome outcome = applier.carryOut(decision);
        if (command instanceof Command.Delete delete && outcome.outcome() == CommandResult.Outcome.DELETED) {
            return dependencies
                    .releaseAll(command.placementId(), delete.copy().namespace())
                    .map(f -> new KubeApplier.Outcome(
                            // sent again, the delete releases what is left; a refusal would only wedge the hub's
                            // finalizer, so it is told in the reason and left to a person
                            f.outcome() == CommandResult.Outcome.RETRY ? f.outcome() : outcome.outcome(),
                            outcome.reason() + "; " + f.reason()))
                    .orElse(outcome);
        }
        return outcome;
    }

    /** Why the kind of the object the command names cannot be watched for now, if it cannot. */
    private Optional<String> unwatched(Command command) {
        if (command instanceof Command.Delete d) {
            return cache.unwatched(d.copy().group(), d.copy().kind());
        }
        JsonNode manifest = ((Command.Apply) command).manifest();
        GroupVersionKind kind = GroupVersionKind.of(
                manifest.path("apiVersion").asText(), manifest.path("kind").asText());
        return cache.unwatched(kind.group(), kind.kind());
    }

    /** The one object the command names (an Apply's manifest, a Delete's copy). Never a search. */
    private Optional<JsonNode> named(Command command) {
        return command instanceof Command.Apply apply
                ? Optional.of(apply.manifest())
                : named(((Command.Delete) command).copy());
    }

    /**
     * The object {@code n} names as it is now: from the cache, else from the API server (the cache may not have seen
     * this agent's own last write). Throws when the API server could not say ({@link KubeApplier#current}).
     */
    private Optional<JsonNode> current(JsonNode n) {
        GroupVersionKind kind = GroupVersionKind.of(
                n.path("apiVersion").asText(), n.path("kind").asText());
        String namespace = n.path("metadata").path("namespace").asText();
        String name = n.path("metadata").path("name").asText();
        Optional<JsonNode> cached = cache.workload(kind, namespace, name);
        return cached.isPresent() ? cached : applier.current(n);
    }

    /** What a Delete's copy names, as an object reference the API server can read; empty when the kind is not watched here. */
    private Optional<JsonNode> named(WorkloadKey copy) {
        return cache.watched(copy.group(), copy.kind()).map(kind -> {
            ObjectNode o = Documents.json()
                    .createObjectNode()
                    .put("apiVersion", kind.apiVersion())
                    .put("kind", kind.kind());
            o.putObject("metadata").put("namespace", copy.namespace()).put("name", copy.name());
            return o;
        });
    }

    /** Why a Delete naming another cluster's copy is refused (the broker sends each cluster its own copies only). */
    private Optional<String> misaddressed(Command command) {
        if (command instanceof Command.Delete d && !d.copy().cluster().equals(cluster)) {
            return Optional.of(
                    "the delete names " + d.copy().kind() + " " + d.copy().namespace() + "/"
                            + d.copy().name() + " on cluster " + d.copy().cluster() + ", not on " + cluster
                            + "; nothing is deleted");
        }
        return Optional.empty();
    }

    /** The command loop clears these. */
    private static void mdc(JsonNode o) {
        MDC.put("kind", o.path("kind").asText());
        MDC.put("namespace", o.path("metadata").path("namespace").asText());
        MDC.put("name", o.path("metadata").path("name").asText());
    }

    private static String verb(Command command) {
        return command instanceof Command.Apply ? "apply" : "delete";
    }
}
