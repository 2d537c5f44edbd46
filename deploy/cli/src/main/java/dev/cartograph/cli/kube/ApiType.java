package dev.cartograph.cli.kube;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Locale;

/**
 * A kind as the API server serves it: plural, short names, scope, and whether this cluster serves
 * it at all. Immutable.
 */
public record ApiType(
        GroupVersionKind gvk, String plural, List<String> shortNames, boolean namespaced, boolean served) {

    public ApiType {
        shortNames = List.copyOf(shortNames);
    }

    /** kubectl-style leniency: kind, plural, singular, short names, and their group-qualified forms. */
    public boolean matches(String token) {
        String t = token.toLowerCase(Locale.ROOT);
        String kind = gvk.kind().toLowerCase(Locale.ROOT);
        String group = gvk.group();
        for (String name : names(kind)) {
            if (t.equals(name)
                    || !group.isEmpty()
                            && (t.equals(name + "." + group) || t.equals(name + "." + gvk.version() + "." + group))
                    || group.isEmpty() && t.equals(name + "." + gvk.version())) {
                return true;
            }
        }
        return false;
    }

    private List<String> names(String kind) {
        java.util.ArrayList<String> names = new java.util.ArrayList<>(List.of(kind, plural.toLowerCase(Locale.ROOT)));
        shortNames.forEach(s -> names.add(s.toLowerCase(Locale.ROOT)));
        return names;
    }

    public ResourceDefinitionContext context() {
        return new ResourceDefinitionContext.Builder()
                .withGroup(gvk.group())
                .withVersion(gvk.version())
                .withKind(gvk.kind())
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }

    /** {@code plural.group}, as kubectl names a resource. */
    public String resource() {
        return gvk.group().isEmpty() ? plural : plural + "." + gvk.group();
    }
}
