package dev.cartograph.mock.server;

import dev.cartograph.mock.discovery.BuiltInKinds;
import dev.cartograph.mock.table.Columns;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The resource types discovery serves now (the built-in table and the stored CRDs' served versions),
 * with what reads need of them: the list kind and the Table columns. Thread-safe: CRDs are read
 * through the supplier on every call, so CRDs created later are served at once.
 */
final class ServedTypes {
    /** A served resource type: its list kind ({@code PodList}) and its Table columns. */
    record ServedType(String listKind, Columns columns) {}

    private final Supplier<List<CustomResourceDefinition>> crds;

    ServedTypes(Supplier<List<CustomResourceDefinition>> crds) {
        this.crds = crds;
    }

    /** The type at {@code resource}, empty when discovery does not serve it. */
    Optional<ServedType> of(ResourcePath resource) {
        Optional<ServedType> builtIn = BuiltInKinds.all().stream()
                .filter(k -> k.group().equals(resource.group())
                        && k.version().equals(resource.version())
                        && k.plural().equals(resource.plural()))
                .findFirst()
                .map(k -> new ServedType(k.kind() + "List", Columns.builtIn(resource.group(), resource.plural())));
        if (builtIn.isPresent()) {
            return builtIn;
        }
        for (CustomResourceDefinition crd : crds.get()) {
            CustomResourceDefinitionNames names =
                    crd.getSpec() == null ? null : crd.getSpec().getNames();
            if (names == null
                    || !resource.group().equals(crd.getSpec().getGroup())
                    || !resource.plural().equals(names.getPlural())) {
                continue;
            }
            String listKind = Optional.ofNullable(names.getListKind()).orElse(names.getKind() + "List");
            return Optional.ofNullable(crd.getSpec().getVersions()).orElse(List.of()).stream()
                    .filter(v -> resource.version().equals(v.getName()) && !Boolean.FALSE.equals(v.getServed()))
                    .findFirst()
                    .map(v -> new ServedType(listKind, Columns.customResource(printerColumns(v))));
        }
        return Optional.empty();
    }

    private static List<CustomResourceColumnDefinition> printerColumns(CustomResourceDefinitionVersion version) {
        return Optional.ofNullable(version.getAdditionalPrinterColumns()).orElse(List.of()).stream()
                .filter(Objects::nonNull)
                .toList();
    }
}
