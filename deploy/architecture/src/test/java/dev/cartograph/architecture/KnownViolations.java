package dev.cartograph.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatchers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Code that broke a rule of {@link ArchitectureTest} when the rule was written. Each entry says what is wrong
 * and where the code belongs; fixing one means deleting its entry ({@code knownViolationsAreAllStillThere}
 * fails until the entry is gone). Nothing is ever added here: new code follows the rules.
 */
final class KnownViolations {

    /** Classes (with their nested classes) that use fabric8 outside an adapter package. */
    static final Set<String> FABRIC8_OUTSIDE_ADAPTERS_NAMES = Set.of(); // none left: every fabric8 user is an adapter

    static final DescribedPredicate<JavaClass> FABRIC8_OUTSIDE_ADAPTERS = DescribedPredicate.describe(
            "listed in KnownViolations.FABRIC8_OUTSIDE_ADAPTERS_NAMES",
            c -> FABRIC8_OUTSIDE_ADAPTERS_NAMES.contains(topLevelName(c)));

    /** A package dependency that closes a cycle today: from classes in {@code originPackages} on one class. */
    record Edge(String[] originPackages, String targetClass) {
        DescribedPredicate<JavaClass> origin() {
            return resideInAnyPackage(originPackages);
        }

        /** The class and its nested classes. */
        DescribedPredicate<JavaClass> target() {
            return DescribedPredicate.describe(targetClass, c -> topLevelName(c).equals(targetClass));
        }
    }

    static final List<Edge> CYCLE_EDGES = List.of(); // none left

    private KnownViolations() {}

    /** Entries that no longer describe anything in {@code classes}: gone, or no longer breaking their rule. */
    static List<String> fixed(JavaClasses classes, String[] fabric8Packages) {
        List<String> fixed = new ArrayList<>();
        for (String listed : FABRIC8_OUTSIDE_ADAPTERS_NAMES) {
            boolean stillUses = classes.stream()
                    .filter(c -> topLevelName(c).equals(listed))
                    .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                    .anyMatch(d -> inAny(d.getTargetClass().getPackageName(), fabric8Packages));
            if (!stillUses) {
                fixed.add("FABRIC8_OUTSIDE_ADAPTERS: " + listed);
            }
        }
        for (Edge edge : CYCLE_EDGES) {
            boolean stillUsed = classes.stream()
                    .filter(edge.origin())
                    .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                    .map(Dependency::getTargetClass)
                    .anyMatch(edge.target());
            if (!stillUsed) {
                fixed.add("CYCLE_EDGES: " + String.join(", ", edge.originPackages()) + " -> " + edge.targetClass());
            }
        }
        return fixed;
    }

    private static String topLevelName(JavaClass c) {
        int nested = c.getName().indexOf('$');
        return nested < 0 ? c.getName() : c.getName().substring(0, nested);
    }

    private static boolean inAny(String packageName, String[] patterns) {
        return PackageMatchers.of(patterns).test(packageName);
    }
}
