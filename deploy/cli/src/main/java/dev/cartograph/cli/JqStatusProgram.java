package dev.cartograph.cli;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.cartograph.interpreter.definition.StatusDefinition;
import dev.cartograph.interpreter.definition.StatusDefinition.ConditionMatch;
import dev.cartograph.interpreter.definition.StatusDefinition.Matcher;
import dev.cartograph.interpreter.view.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Translates a definition's status mappings into one standalone program for the {@code jq}
 * command, computing the same matched phases as Cartograph (in precedence order), so the two can be
 * compared for speed and cross-checked for agreement. Pure.
 */
final class JqStatusProgram {
    private JqStatusProgram() {}

    static String of(StatusDefinition status) {
        StringBuilder p = new StringBuilder();
        status.conditions()
                .ifPresentOrElse(
                        c -> p.append("def conds: [(")
                                .append(c.path().source())
                                .append(
                                        ") | if type == \"array\" then .[] elif type == \"object\" then . else empty end];\n")
                                .append("def cond($t): (conds | map(select(.")
                                .append(str(c.typeField()))
                                .append(" == $t)) | last);\n"),
                        () -> p.append("def cond($t): null;\n"));
        p.append("def rawphase: ")
                .append(status.phasePath()
                        .map(e -> "([limit(1; (" + e.source() + ") | select(. != null) | tostring)] | .[0])")
                        .orElse("null"))
                .append(";\n");
        List<String> arms = new ArrayList<>();
        for (Phase phase : Phase.values()) {
            List<Matcher> matchers = status.mappings().getOrDefault(phase, List.of());
            if (!matchers.isEmpty()) {
                List<String> any = matchers.stream()
                        .map(m -> matcher(m, status.conditions()))
                        .toList();
                arms.add("(if " + String.join(" or ", any) + " then \"" + phase.displayName() + "\" else empty end)");
            }
        }
        p.append(". as $o | [")
                .append(arms.isEmpty() ? "empty" : String.join(", ", arms))
                .append("] | if length == 0 then [\"Undefined\"] else . end");
        return p.toString();
    }

    private static String matcher(Matcher m, Optional<StatusDefinition.Conditions> conditions) {
        List<String> all = new ArrayList<>();
        m.byPhase().ifPresent(ph -> all.add("($o | rawphase) == " + str(ph)));
        for (ConditionMatch c : m.byConditions()) {
            StatusDefinition.Conditions names = conditions.orElseThrow();
            StringBuilder t = new StringBuilder("(($o | cond(" + str(c.type()) + ")) as $c | $c != null");
            c.status()
                    .ifPresent(s -> t.append(" and ($c.")
                            .append(str(names.statusField()))
                            .append(" | tostring) == ")
                            .append(str(s)));
            c.reason()
                    .ifPresent(r -> t.append(" and ($c.")
                            .append(str(names.reasonField()))
                            .append(" | tostring) == ")
                            .append(str(r)));
            all.add(t.append(")").toString());
        }
        m.byExpression()
                .ifPresent(e -> all.add("(try (($o | [limit(1; "
                        + e.expression().source() + ")] | .[0]) == " + str(e.expectedResult()) + ") catch false)"));
        return all.isEmpty() ? "true" : "(" + String.join(" and ", all) + ")";
    }

    private static String str(String s) {
        return TextNode.valueOf(s).toString();
    }
}
