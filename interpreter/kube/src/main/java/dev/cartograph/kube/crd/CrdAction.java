package dev.cartograph.kube.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.Objects;
import java.util.Optional;

/**
 * What installing one CRD on a cluster does: create it, update Cartograph's older copy, nothing (it is
 * there as generated), or nothing because something else serves the kind ({@link #reason()} says what).
 * {@link #crd()} is the object to send: for an update, the generated CRD carrying the existing one's
 * resourceVersion and its other labels and annotations. Immutable once built (the CRD is not copied:
 * do not modify it).
 */
public record CrdAction(String name, Outcome outcome, String reason, CustomResourceDefinition crd) {
    /** The four outcomes, with the word {@code carto install crds} prints for each. */
    public enum Outcome {
        CREATE("created"),
        UPDATE("updated"),
        UNCHANGED("unchanged"),
        SKIP("skipped");

        private final String word;

        Outcome(String word) {
            this.word = word;
        }

        /** The past participle printed after the CRD's name. */
        public String word() {
            return word;
        }

        /** Whether the cluster has to be written to. */
        public boolean writes() {
            return this == CREATE || this == UPDATE;
        }
    }

    public CrdAction {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(crd, "crd");
        if (outcome == Outcome.SKIP && reason.isBlank()) {
            throw new IllegalArgumentException("a skipped CRD needs a reason: " + name);
        }
    }

    /** {@code skipped (served by ...)} or just the outcome's word. */
    public String describe() {
        return outcome.word() + (reason.isBlank() ? "" : " (" + reason + ")");
    }

    /** The reason, when there is one. */
    public Optional<String> why() {
        return reason.isBlank() ? Optional.empty() : Optional.of(reason);
    }
}
