package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Seeds a fabric8 mock API server (CRUD mode) like a real cluster, and writes a kubeconfig for it. */
final class MockCluster {
    private final KubernetesClient client;
    /** The uid the server gave each created object, by "plural/name" (the mock assigns its own uids). */
    private final java.util.Map<String, String> uids = new java.util.HashMap<>();

    MockCluster(KubernetesClient client) {
        this.client = client;
    }

    Path kubeconfig(Path dir, String namespace) throws Exception {
        String server = client.getConfiguration().getMasterUrl();
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: me, user: {token: t}}]
                contexts: [{name: mock, context: {cluster: mock, user: me, namespace: %s}}]
                current-context: mock
                """.formatted(server, namespace));
        return file;
    }

    MockCluster crd(String group, String kind, String plural, List<String> shortNames, String... versions) {
        return crd("Namespaced", group, kind, plural, shortNames, versions);
    }

    MockCluster crd(
            String scope, String group, String kind, String plural, List<String> shortNames, String... versions) {
        List<io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion> served =
                new java.util.ArrayList<>();
        for (String v : versions) {
            served.add(new io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder()
                    .withName(v)
                    .withServed(true)
                    .withStorage(v.equals(versions[0]))
                    .build());
        }
        CustomResourceDefinition crd = new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(plural + "." + group)
                .endMetadata()
                .withNewSpec()
                .withGroup(group)
                .withScope(scope)
                .withVersions(served)
                .withNewNames()
                .withKind(kind)
                .withPlural(plural)
                .withSingular(kind.toLowerCase())
                .withShortNames(shortNames)
                .endNames()
                .endSpec()
                .build();
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        return this;
    }

    /**
     * Creates every object in the YAML text under the given plural. {@code UID(plural/name)} in the
     * text stands for the uid the server gave an object created earlier (for owner references).
     */
    void create(String yaml, String plural) throws Exception {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("UID\\(([^)]+)\\)").matcher(yaml);
        StringBuilder text = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(text, uids.getOrDefault(m.group(1), "missing-" + m.group(1)));
        }
        m.appendTail(text);
        for (JsonNode doc :
                Documents.read(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)))) {
            String apiVersion = doc.path("apiVersion").asText();
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
            boolean namespaced = doc.path("metadata").has("namespace");
            ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder()
                    .withGroup(group)
                    .withVersion(version)
                    .withKind(doc.path("kind").asText())
                    .withPlural(plural)
                    .withNamespaced(namespaced)
                    .build();
            GenericKubernetesResource r = Documents.json().treeToValue(doc, GenericKubernetesResource.class);
            GenericKubernetesResource created = namespaced
                    ? client.genericKubernetesResources(ctx)
                            .inNamespace(doc.path("metadata").path("namespace").asText())
                            .resource(r)
                            .create()
                    : client.genericKubernetesResources(ctx).resource(r).create();
            uids.put(
                    plural + "/" + created.getMetadata().getName(),
                    created.getMetadata().getUid());
        }
    }

    /** The uid the server gave the object created as {@code plural/name}. */
    String uid(String pluralSlashName) {
        return java.util.Optional.ofNullable(uids.get(pluralSlashName))
                .orElseThrow(() -> new IllegalArgumentException("not created: " + pluralSlashName));
    }

    /** A running, ready pod owned by {@code owner}. */
    static String pod(
            String ns,
            String name,
            String uid,
            String ownerKind,
            String ownerApi,
            String ownerName,
            String ownerUid,
            String labels,
            String node,
            boolean ready,
            int gpus) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: %s
                  uid: %s
                  labels: {%s}
                  ownerReferences: [{apiVersion: %s, kind: %s, name: %s, uid: %s, controller: true}]
                spec:
                  nodeName: %s
                  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: %d}}}]
                status:
                  phase: %s
                  conditions: [{type: Ready, status: "%s"}]
                ---
                """.formatted(
                        name,
                        ns,
                        uid,
                        labels,
                        ownerApi,
                        ownerKind,
                        ownerName,
                        ownerUid,
                        node,
                        gpus,
                        ready ? "Running" : "Pending",
                        ready ? "True" : "False");
    }
}
