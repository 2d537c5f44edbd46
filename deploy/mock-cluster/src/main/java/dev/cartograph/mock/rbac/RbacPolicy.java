package dev.cartograph.mock.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The RBAC objects of a cluster (ClusterRoles, Roles, ClusterRoleBindings, RoleBindings) and kube-apiserver's
 * RBAC decision over them: a request is allowed when a rule of a role bound to its subject allows it —
 * ClusterRoleBindings everywhere, a RoleBinding only for requests in its own namespace (to a Role of that
 * namespace or a ClusterRole). Deny is the default; there are no deny rules. Every authenticated subject may
 * read the discovery, version, health and OpenAPI paths (kube-apiserver's {@code system:discovery} and
 * {@code system:public-info-viewer}). Not modelled: aggregated ClusterRoles, impersonation, other authorizers.
 * Immutable; thread-safe.
 */
public final class RbacPolicy {
    /** What {@code system:discovery} and {@code system:public-info-viewer} give {@code system:authenticated}. */
    static final Rule DISCOVERY = new Rule(
            List.of("get"),
            List.of(),
            List.of(),
            List.of(),
            List.of(
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                    "/healthz",
                    "/livez",
                    "/readyz",
                    "/version",
                    "/version/",
                    "/openapi",
                    "/openapi/*"));

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private record SubjectRef(String kind, String name, String namespace) {}

    private record Binding(String namespace, String roleKind, String roleName, List<SubjectRef> subjects) {}

    private final Map<String, List<Rule>> clusterRoles;
    private final Map<String, List<Rule>> roles; // key namespace/name
    private final List<Binding> bindings;

    private RbacPolicy(Map<String, List<Rule>> clusterRoles, Map<String, List<Rule>> roles, List<Binding> bindings) {
        this.clusterRoles = Map.copyOf(clusterRoles);
        this.roles = Map.copyOf(roles);
        this.bindings = List.copyOf(bindings);
    }

    /** No roles, no bindings: everything but discovery is denied. */
    public static RbacPolicy empty() {
        return new RbacPolicy(Map.of(), Map.of(), List.of());
    }

    /**
     * The RBAC objects in multi-document YAML manifests; other kinds (ServiceAccount, Namespace) are skipped.
     * Throws {@link IllegalArgumentException} naming the document when one is not a valid object.
     */
    public static RbacPolicy fromYaml(List<String> manifests) {
        Map<String, List<Rule>> clusterRoles = new HashMap<>();
        Map<String, List<Rule>> roles = new HashMap<>();
        List<Binding> bindings = new ArrayList<>();
        for (JsonNode doc : documents(manifests)) {
            String json = doc.toString();
            switch (doc.path("kind").asText()) {
                case "ClusterRole" -> {
                    ClusterRole r = SERIALIZATION.unmarshal(json, ClusterRole.class);
                    clusterRoles.put(r.getMetadata().getName(), rules(r.getRules()));
                }
                case "Role" -> {
                    Role r = SERIALIZATION.unmarshal(json, Role.class);
                    roles.put(
                            r.getMetadata().getNamespace() + "/"
                                    + r.getMetadata().getName(),
                            rules(r.getRules()));
                }
                case "ClusterRoleBinding" -> {
                    ClusterRoleBinding b = SERIALIZATION.unmarshal(json, ClusterRoleBinding.class);
                    bindings.add(binding("", b.getRoleRef(), b.getSubjects()));
                }
                case "RoleBinding" -> {
                    RoleBinding b = SERIALIZATION.unmarshal(json, RoleBinding.class);
                    bindings.add(binding(b.getMetadata().getNamespace(), b.getRoleRef(), b.getSubjects()));
                }
                default -> {
                    // not RBAC: nothing to authorize with
                }
            }
        }
        return new RbacPolicy(clusterRoles, roles, bindings);
    }

    /** Whether {@code subject} may do what {@code request} asks. */
    public boolean allows(Subject subject, RequestAttributes request) {
        if (subject.groups().contains(Subject.AUTHENTICATED) && DISCOVERY.allows(request)) {
            return true;
        }
        return rulesFor(subject, request.namespace()).anyMatch(r -> r.allows(request));
    }

    private Stream<Rule> rulesFor(Subject subject, String namespace) {
        return bindings.stream()
                .filter(b -> b.namespace().isEmpty() || b.namespace().equals(namespace) && !namespace.isEmpty())
                .filter(b -> b.subjects().stream().anyMatch(s -> matches(s, subject)))
                .flatMap(b -> roleRules(b).stream());
    }

    private List<Rule> roleRules(Binding b) {
        if ("ClusterRole".equals(b.roleKind())) {
            return clusterRoles.getOrDefault(b.roleName(), List.of());
        }
        return b.namespace().isEmpty()
                ? List.of() // a ClusterRoleBinding can only name a ClusterRole
                : roles.getOrDefault(b.namespace() + "/" + b.roleName(), List.of());
    }

    private static boolean matches(SubjectRef s, Subject subject) {
        return switch (s.kind()) {
            case "ServiceAccount" -> subject.user().equals(Subject.serviceAccount(s.namespace(), s.name()));
            case "User" -> subject.user().equals(s.name());
            case "Group" -> subject.groups().contains(s.name());
            default -> false;
        };
    }

    private static Binding binding(
            String namespace, RoleRef ref, List<io.fabric8.kubernetes.api.model.rbac.Subject> subjects) {
        List<SubjectRef> refs = subjects == null
                ? List.of()
                : subjects.stream()
                        .map(s -> new SubjectRef(
                                s.getKind(),
                                s.getName(),
                                s.getNamespace() == null || s.getNamespace().isEmpty() ? namespace : s.getNamespace()))
                        .toList();
        return new Binding(namespace, ref.getKind(), ref.getName(), refs);
    }

    private static List<Rule> rules(List<PolicyRule> rules) {
        return rules == null ? List.of() : rules.stream().map(Rule::of).toList();
    }

    private static List<JsonNode> documents(List<String> manifests) {
        YAMLMapper yaml = new YAMLMapper();
        List<JsonNode> docs = new ArrayList<>();
        for (String manifest : manifests) {
            try (MappingIterator<JsonNode> it = yaml.readerFor(JsonNode.class).readValues(manifest)) {
                while (it.hasNext()) {
                    JsonNode doc = it.next();
                    if (doc != null && doc.isObject()) {
                        docs.add(doc);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("an RBAC manifest is not valid YAML: " + e.getMessage(), e);
            }
        }
        return docs;
    }
}
