package dev.cartograph.mock.server;

import dev.cartograph.mock.admission.Admission;
import dev.cartograph.mock.admission.AdmissionDenial;
import dev.cartograph.mock.admission.AdmissionRule.Operation;
import dev.cartograph.mock.discovery.ApiKind;
import dev.cartograph.mock.discovery.Discovery;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Puts creates and updates of served resources through the server's {@link Admission} before they reach the store,
 * after RBAC, as kube-apiserver calls validating webhooks: POST is CREATE, PUT is UPDATE, PATCH is UPDATE of an
 * existing object and CREATE of a missing one (server-side apply). The kind comes from discovery (the path's group,
 * version and plural), so a patch without {@code kind} in its body is reviewed too. Subresources ({@code status},
 * {@code scale}) and other verbs pass. Remembers every denial (for tests). Thread-safe.
 */
final class AdmissionGate {
    private final Admission admission;
    private final Supplier<Discovery> discovery;
    private final KubernetesCrudDispatcher store;
    private final List<AdmissionDenial> denials = new CopyOnWriteArrayList<>();

    AdmissionGate(Admission admission, Supplier<Discovery> discovery, KubernetesCrudDispatcher store) {
        this.admission = admission;
        this.discovery = discovery;
        this.store = store;
    }

    /** The 403 answer to a write admission refuses; empty when admitted. */
    Optional<MockResponse> review(String method, String path) {
        if (admission.admitsEverything()) {
            return Optional.empty();
        }
        Optional<ResourcePath> resource = ResourcePath.parse(path);
        if (resource.isEmpty()) {
            return Optional.empty();
        }
        Optional<Operation> operation = operation(method, resource.get(), path);
        if (operation.isEmpty()) {
            return Optional.empty(); // reads and deletes are not reviewed
        }
        Optional<String> kind = discovery.get().kinds().stream()
                .filter(k -> k.group().equals(resource.get().group())
                        && k.version().equals(resource.get().version())
                        && k.plural().equals(resource.get().plural()))
                .map(ApiKind::kind)
                .findFirst();
        if (kind.isEmpty()) {
            return Optional.empty();
        }
        Optional<AdmissionDenial> denial = admission.review(
                operation.get(), kind.get(), resource.get().namespace().orElse(""));
        denial.ifPresent(denials::add);
        return denial.map(d -> Responses.json(AdmissionDenial.CODE, d.statusJson()));
    }

    List<AdmissionDenial> denials() {
        return List.copyOf(denials);
    }

    private Optional<Operation> operation(String method, ResourcePath resource, String path) {
        return switch (method) {
            case "POST" -> resource.isList() ? Optional.of(Operation.CREATE) : Optional.empty();
            case "PUT" -> resource.isList() ? Optional.empty() : Optional.of(Operation.UPDATE);
            case "PATCH" ->
                resource.isList()
                        ? Optional.empty()
                        : Optional.of(store.handleGet(path).code() == 200 ? Operation.UPDATE : Operation.CREATE);
            default -> Optional.empty();
        };
    }
}
