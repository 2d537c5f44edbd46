package dev.cartograph.mock.server;

import dev.cartograph.mock.discovery.ApiKind;
import dev.cartograph.mock.discovery.CrdKinds;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

/**
 * What follows a CRD write on the mock: every served version of each stored CRD is registered with the CRUD
 * dispatcher (alone it knows one version per CRD, so {@code .../status} works on all of them), and each CRD gets what
 * kube-apiserver's CRD controllers do after a CRD is written: accept its names and mark it
 * {@code NamesAccepted=True}, {@code Established=True} (it serves the kind), with {@code acceptedNames} and
 * {@code storedVersions} in its status. Clients that wait for {@code condition=established}
 * ({@code kubectl wait}, {@code carto install crds}, Helm) see it at once. A write that drops the status (an
 * update of the whole CRD) gets it back. Stateless.
 */
final class CrdWrites {
    private CrdWrites() {}

    /** After a CRD write: registers every CRD's versions and establishes those that are not yet. */
    static void followed(
            KubernetesCrudDispatcher store,
            List<CustomResourceDefinition> stored,
            RecordedRequest write,
            KubernetesSerialization serialization,
            Clock clock) {
        registerVersions(store, stored);
        establish(store, stored, write, serialization, clock);
    }

    private static void registerVersions(KubernetesCrudDispatcher delegate, List<CustomResourceDefinition> stored) {
        for (CustomResourceDefinition crd : stored) {
            for (ApiKind kind : CrdKinds.of(crd)) {
                delegate.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                        .withName(crd.getMetadata().getName())
                        .withGroup(kind.group())
                        .withVersion(kind.version())
                        .withPlural(kind.plural())
                        .withKind(kind.kind())
                        .withScope(kind.namespaced() ? "Namespaced" : "Cluster")
                        .withStatusSubresource(kind.statusSubresource())
                        .build());
            }
        }
    }

    /** Writes the conditions on every CRD in {@code stored} that is not established yet, through {@code store}. */
    private static void establish(
            KubernetesCrudDispatcher store,
            List<CustomResourceDefinition> stored,
            RecordedRequest write,
            KubernetesSerialization serialization,
            Clock clock) {
        for (CustomResourceDefinition crd : stored) {
            if (established(crd)) {
                continue;
            }
            String body =
                    serialization.asJson(withConditions(crd, clock.instant().toString()));
            store.handleUpdate(new RecordedRequest(
                    write.getHttpVersion(),
                    HttpMethod.PUT,
                    DiscoveryDispatcher.CRD_PATH + "/" + crd.getMetadata().getName(),
                    write.getHeaders(),
                    new Buffer(body.getBytes(StandardCharsets.UTF_8))));
        }
    }

    static boolean established(CustomResourceDefinition crd) {
        return crd.getStatus() != null
                && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static CustomResourceDefinition withConditions(CustomResourceDefinition crd, String now) {
        List<String> storedVersions = crd.getSpec().getVersions().stream()
                .filter(v -> Boolean.TRUE.equals(v.getStorage()))
                .map(CustomResourceDefinitionVersion::getName)
                .toList();
        return new CustomResourceDefinitionBuilder(crd)
                .withNewStatus()
                .withAcceptedNames(crd.getSpec().getNames())
                .withStoredVersions(storedVersions)
                .withConditions(
                        condition("NamesAccepted", "NoConflicts", "no conflicts found", now),
                        condition("Established", "InitialNamesAccepted", "the initial names have been accepted", now))
                .endStatus()
                .build();
    }

    private static CustomResourceDefinitionCondition condition(String type, String reason, String message, String now) {
        return new CustomResourceDefinitionConditionBuilder()
                .withType(type)
                .withStatus("True")
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(now)
                .build();
    }
}
