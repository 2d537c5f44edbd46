package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.ScaleDefinition;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.resources.Ceilings;
import dev.cartograph.interpreter.view.Replicas;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * Reads replica counts from what a component's scale paths yield and multiplies them by the
 * owners' scale, within {@link Ceilings#MAX_REPLICAS} pods per component instance. A count that is
 * not a whole number from 0 to the ceiling rejects the object, named by the definition field that
 * read it and, when that is a path, the object's field. Not thread-safe: one per resolution.
 */
final class ReplicaCounts {
    private final Evaluations eval;
    private final Findings findings;

    ReplicaCounts(Evaluations eval, Findings findings) {
        this.eval = eval;
        this.findings = findings;
    }

    /** The counts one component instance states itself, before its owners' scale. */
    record Scale(Optional<Long> desired, Optional<Long> min, Optional<Long> max) {}

    /** Instance {@code index}'s counts from what {@code c}'s scale paths yielded for all {@code instances}. */
    Scale read(
            ComponentDefinition c,
            List<JsonNode> replicas,
            List<JsonNode> mins,
            List<JsonNode> maxes,
            int index,
            int instances) {
        String at = c.field() + ".scaleDefinition.";
        Optional<ScaleDefinition> scale = c.scale();
        return new Scale(
                read(
                        Evaluations.at(replicas, index),
                        at + "replicasPath",
                        scale.flatMap(ScaleDefinition::replicasPath),
                        index,
                        instances),
                read(
                        Evaluations.at(mins, index),
                        at + "minReplicasPath",
                        scale.flatMap(ScaleDefinition::minReplicasPath),
                        index,
                        instances),
                read(
                        Evaluations.at(maxes, index),
                        at + "maxReplicasPath",
                        scale.flatMap(ScaleDefinition::maxReplicasPath),
                        index,
                        instances));
    }

    /**
     * A replica count: a whole number from 0 to the ceiling; null is absent. Anything else is
     * rejected; {@code path} (instance {@code index} of {@code instances}) locates it in the object.
     */
    private Optional<Long> read(JsonNode value, String field, Optional<JqExpression> path, int index, int instances) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return Optional.empty();
        }
        Optional<String> why = whyNotACount(value);
        if (why.isEmpty()) {
            return Optional.of(value.decimalValue().longValueExact());
        }
        String at = path.flatMap(p -> eval.objectPath(p, index, instances))
                .map(p -> " (at " + p + ")")
                .orElse("");
        findings.reject(field, "is not a replica count: " + why.get() + at);
        return Optional.empty();
    }

    /** Own counts times the owner's, each within the ceiling (a count beyond it is rejected, and capped). */
    Replicas scale(Scale own, InstanceResolver.Multiplier owner, String field) {
        long desired = own.desired().orElse(own.min().filter(m -> m > 0).orElse(1L));
        long min = own.min().filter(m -> m > 0).orElse(desired);
        return new Replicas(
                times(desired, owner.desired(), field),
                times(min, owner.min(), field),
                own.max().flatMap(m -> owner.max().map(om -> times(m, om, field))));
    }

    private long times(long own, long owner, String field) {
        long pods = own * owner; // both at most the ceiling, 10^6: the product fits
        if (pods > Ceilings.MAX_REPLICAS) {
            findings.reject(
                    field,
                    own + " replicas × " + owner + " of the owner's = " + pods + " pods, more than the ceiling of "
                            + Ceilings.MAX_REPLICAS + " per component instance");
            return Ceilings.MAX_REPLICAS;
        }
        return pods;
    }

    private static Optional<String> whyNotACount(JsonNode value) {
        if (!value.isNumber()) {
            String text = value.toString();
            return Optional.of((text.length() > 64 ? text.substring(0, 64) + "…" : text) + " is not a number");
        }
        if (value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue())) {
            return Optional.of(value.asText() + " is not a finite number");
        }
        BigDecimal count = value.decimalValue();
        if (count.signum() < 0) {
            return Optional.of(value.asText() + " is negative");
        }
        if (count.stripTrailingZeros().scale() > 0) {
            return Optional.of(value.asText() + " is not a whole number");
        }
        if (count.compareTo(BigDecimal.valueOf(Ceilings.MAX_REPLICAS)) > 0) {
            return Optional.of(value.asText() + " is more than the ceiling of " + Ceilings.MAX_REPLICAS
                    + " pods per component instance");
        }
        return Optional.empty();
    }
}
