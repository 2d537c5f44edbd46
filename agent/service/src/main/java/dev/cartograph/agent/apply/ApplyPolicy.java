package dev.cartograph.agent.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.podsecurity.Level;
import dev.cartograph.interpreter.podsecurity.PodSecurity;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.interpreter.podsecurity.Violation;
import dev.cartograph.protocol.Command;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what to do with one command, given what the cluster holds for its placement. Pure: the
 * kube adapter carries the decision out. Immutable and thread-safe.
 *
 * <p>A manifest is checked again here, whatever the broker decided: its pod templates against its namespace's
 * pod security level ({@link PodSecurity}), and its namespace against those no command may write into; its
 * dependencies against what an agent copies ({@link Dependencies#refusal}).
 *
 * @param allowedNamespaces namespaces commands may write into; empty means any but {@code deniedNamespaces}
 * @param deniedNamespaces  namespaces no command writes into, even when allowed
 * @param podSecurity       the pod security level of each namespace
 */
public record ApplyPolicy(
        Definitions catalog,
        Set<String> allowedNamespaces,
        Set<String> deniedNamespaces,
        PodSecurityPolicy podSecurity) {

    public static final Set<String> SYSTEM_NAMESPACES = Set.of("kube-system", "kube-public", "kube-node-lease");

    public ApplyPolicy {
        Objects.requireNonNull(catalog, "catalog");
        allowedNamespaces = Set.copyOf(allowedNamespaces);
        deniedNamespaces = Set.copyOf(deniedNamespaces);
        Objects.requireNonNull(podSecurity, "podSecurity");
    }

    /** With pod security {@link PodSecurityPolicy#DEFAULT} (baseline everywhere). */
    public ApplyPolicy(Definitions catalog, Set<String> allowedNamespaces, Set<String> deniedNamespaces) {
        this(catalog, allowedNamespaces, deniedNamespaces, PodSecurityPolicy.DEFAULT);
    }

    /** What to do; a value, with the reason for refusals. */
    public sealed interface Decision {
        record Create(JsonNode manifest) implements Decision {}

        record Update(JsonNode manifest) implements Decision {}

        record Delete(JsonNode existing) implements Decision {}

        record NothingToDelete() implements Decision {}

        record Reject(String reason) implements Decision {}

        record Stale(long applied) implements Decision {}
    }

    /**
     * @param existing the object this agent created for the placement, if any (found by label)
     */
    public Decision decide(Command command, Optional<JsonNode> existing) {
        Optional<Long> appliedEpoch = existing.flatMap(Ownership::epoch);
        if (appliedEpoch.isPresent() && command.epoch() < appliedEpoch.get()) {
            return new Decision.Stale(appliedEpoch.get());
        }
        if (command instanceof Command.Delete) {
            return existing.<Decision>map(Decision.Delete::new).orElseGet(Decision.NothingToDelete::new);
        }
        JsonNode manifest = ((Command.Apply) command).manifest();
        Optional<String> refusal = refusal(manifest).or(() -> Dependencies.refusal((Command.Apply) command));
        if (refusal.isPresent()) {
            return new Decision.Reject(refusal.get());
        }
        if (existing.isPresent() && !sameObject(existing.get(), manifest)) {
            return new Decision.Reject("placement " + command.placementId() + " already created "
                    + existing.get().path("kind").asText() + " "
                    + existing.get().path("metadata").path("namespace").asText()
                    + "/" + existing.get().path("metadata").path("name").asText() + "; a placement holds one object");
        }
        JsonNode marked = Ownership.mark(manifest, command.placementId(), command.epoch());
        return existing.isPresent() ? new Decision.Update(marked) : new Decision.Create(marked);
    }

    private Optional<String> refusal(JsonNode manifest) {
        String apiVersion = manifest.path("apiVersion").asText("");
        String kind = manifest.path("kind").asText("");
        String name = manifest.path("metadata").path("name").asText("");
        String namespace = manifest.path("metadata").path("namespace").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty() || name.isEmpty()) {
            return Optional.of("the manifest needs apiVersion, kind and metadata.name");
        }
        if (catalog.find(GroupVersionKind.of(apiVersion, kind)).isEmpty()) {
            return Optional.of(kind + " (" + apiVersion + ") is not a catalog workload kind; only those are applied");
        }
        if (namespace.isEmpty()) {
            return Optional.of("the manifest has no metadata.namespace; only namespaced workloads are applied");
        }
        if (deniedNamespaces.contains(namespace)
                || !allowedNamespaces.isEmpty() && !allowedNamespaces.contains(namespace)) {
            return Optional.of("namespace " + namespace + " is not allowed"
                    + (allowedNamespaces.isEmpty()
                            ? ""
                            : " (allowed: " + String.join(", ", new java.util.TreeSet<>(allowedNamespaces)) + ")"));
        }
        Level level = podSecurity.levelFor(namespace);
        List<Violation> violations = PodSecurity.check(Interpreter.of(catalog).resolve(manifest), level);
        if (!violations.isEmpty()) {
            return Optional.of(PodSecurity.summary(level, namespace, violations) + "; nothing was written");
        }
        return Optional.empty();
    }

    private static boolean sameObject(JsonNode existing, JsonNode manifest) {
        return existing.path("kind").asText().equals(manifest.path("kind").asText())
                && existing.path("metadata")
                        .path("name")
                        .asText()
                        .equals(manifest.path("metadata").path("name").asText())
                && existing.path("metadata")
                        .path("namespace")
                        .asText()
                        .equals(manifest.path("metadata").path("namespace").asText());
    }
}
