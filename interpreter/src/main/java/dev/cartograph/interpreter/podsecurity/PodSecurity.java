package dev.cartograph.interpreter.podsecurity;

import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks every pod template of a workload against the Kubernetes Pod Security Standards (the checks of
 * {@code k8s.io/pod-security-admission} at version {@code latest}), whatever the workload's shape: the pod
 * templates are the ones its definition locates, as {@link WorkloadView} holds them. Every container
 * (init, regular and ephemeral) and both the pod's and each container's security context are checked, and
 * every violation is listed, not only the first. Pure and thread-safe.
 *
 * <pre>{@code
 * if (interpreter.resolve(object) instanceof Resolution.Resolved r) {
 *     List<Violation> refused = PodSecurity.check(r.view(), Level.BASELINE);
 * }
 * }</pre>
 */
public final class PodSecurity {
    private PodSecurity() {}

    /** Every violation of {@code level} in the view's pod templates, in template order; empty when it complies. */
    public static List<Violation> check(WorkloadView view, Level level) {
        Set<Violation> out = new LinkedHashSet<>(); // two components may locate the same template
        String object = view.identity().describe();
        for (ComponentView c : view.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (i.podTemplate().isEmpty()) {
                    continue;
                }
                String assembled = "pod template of component " + c.name() + " instance " + i.id() + " ";
                Template t = new Template(
                        object,
                        i.podTemplate().get(),
                        i.specField().orElse(assembled + "spec"),
                        i.metadataField().orElse(assembled + "metadata"));
                t.nodeName();
                if (level != Level.PRIVILEGED) {
                    BaselineChecks.check(t, level == Level.RESTRICTED);
                }
                if (level == Level.RESTRICTED) {
                    RestrictedChecks.check(t);
                }
                out.addAll(t.violations());
            }
        }
        return List.copyOf(out);
    }

    /**
     * {@link #check(WorkloadView, Level)} of a resolution. An object whose pod templates cannot all be
     * located (it cannot be interpreted, or its definition's paths failed on it) cannot be shown to comply,
     * so that is a violation too, with the interpreter's problems as the reason.
     */
    public static List<Violation> check(Resolution resolution, Level level) {
        if (!(resolution instanceof Resolution.Resolved r)) {
            return List.of(new Violation(
                    subject(resolution),
                    "",
                    "podTemplates",
                    "its pod templates cannot be read, so its pod security cannot be checked: "
                            + resolution.problems().stream()
                                    .map(Problem::toString)
                                    .collect(Collectors.joining("; "))));
        }
        List<Violation> out = new ArrayList<>();
        String object = r.view().identity().describe();
        for (Problem p : r.problems()) {
            if (p.isError() && mayHideTemplates(p.field())) {
                out.add(new Violation(
                        object,
                        p.field(),
                        "podTemplates",
                        "part of it could not be read, so a pod template may be unseen and its pod security cannot be checked: "
                                + p.message()));
            }
        }
        out.addAll(check(r.view(), level));
        return List.copyOf(out);
    }

    /**
     * One line for users: the level, the namespace, how many violations, and each of them ({@code field: reason})
     * as far as about {@value #SUMMARY_BUDGET} characters go ({@code and N more} after that): it goes into an
     * annotation, an Event and a record, which all have size limits.
     */
    public static String summary(Level level, String namespace, List<Violation> violations) {
        StringBuilder out = new StringBuilder("pod security level " + level + " of namespace " + namespace
                + " refuses it (" + violations.size() + " violation" + (violations.size() == 1 ? "" : "s") + "): ");
        int listed = 0;
        for (Violation v : violations) {
            if (listed > 0 && out.length() + v.toString().length() > SUMMARY_BUDGET) {
                break;
            }
            out.append(listed == 0 ? "" : "; ").append(v);
            listed++;
        }
        if (listed < violations.size()) {
            out.append("; and ").append(violations.size() - listed).append(" more");
        }
        return out.toString();
    }

    /** About the most characters {@link #summary} spends on listing violations. */
    public static final int SUMMARY_BUDGET = 4000;

    /**
     * Whether an error at this definition field may leave a pod template unseen: any error of a component
     * (its ids, scale or spec paths failed, so its instances were dropped), except in the status mappings and
     * pod selectors, which only read the object's status and live pods.
     */
    private static boolean mayHideTemplates(String field) {
        return !field.contains("statusDefinition") && !field.contains("podSelector");
    }

    private static String subject(Resolution resolution) {
        return resolution.problems().isEmpty()
                ? ""
                : resolution.problems().get(0).subject();
    }
}
