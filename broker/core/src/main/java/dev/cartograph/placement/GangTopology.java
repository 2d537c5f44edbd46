package dev.cartograph.placement;

import java.util.Objects;
import java.util.Set;

/**
 * What a gang asks of the topology: the pods of {@code components} (all of them when empty) inside one domain of
 * {@code level}, a node label key such as {@code nvidia.com/gpu.clique} — each value of that label in one cluster is
 * one domain. {@link Mode#REQUIRED}: in one domain or not at all (the gang waits); {@link Mode#PREFERRED}: in as few
 * domains as the planner finds room in. {@link #NONE} asks nothing. Immutable.
 */
public record GangTopology(String level, Mode mode, Set<String> components) {
    public enum Mode {
        REQUIRED,
        PREFERRED
    }

    /** No topology asked for. */
    public static final GangTopology NONE = new GangTopology("", Mode.PREFERRED, Set.of());

    public GangTopology {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(mode, "mode");
        components = Set.copyOf(components);
    }

    public static GangTopology required(String level) {
        return new GangTopology(level, Mode.REQUIRED, Set.of());
    }

    public static GangTopology preferred(String level) {
        return new GangTopology(level, Mode.PREFERRED, Set.of());
    }

    /** The same request for the pods of these components only (pod sets that asked, when not the whole gang did). */
    public GangTopology of(Set<String> only) {
        return new GangTopology(level, mode, only);
    }

    public boolean none() {
        return level.isEmpty();
    }

    public boolean required() {
        return !none() && mode == Mode.REQUIRED;
    }

    /** Whether the request binds the pods of this demand. */
    boolean binds(PodDemand d) {
        return !none() && (components.isEmpty() || components.contains(d.component()));
    }

    @Override
    public String toString() {
        return none()
                ? "no topology"
                : mode.name().toLowerCase(java.util.Locale.ROOT) + " " + level
                        + (components.isEmpty() ? "" : " for " + new java.util.TreeSet<>(components));
    }
}
