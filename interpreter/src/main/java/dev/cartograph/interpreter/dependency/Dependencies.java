package dev.cartograph.interpreter.dependency;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.dependency.Dependency.Kind;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects a workload's pods need, found in the pod templates its definition locates (any kind, any shape):
 * ConfigMaps and Secrets in volumes, projected volumes, {@code envFrom} and {@code env[].valueFrom} of every
 * container, init container and ephemeral container; {@code imagePullSecrets}; the ServiceAccount named by
 * {@code serviceAccountName} (or the older {@code serviceAccount}) unless it is {@code default}, which every
 * namespace has; PersistentVolumeClaims in volumes. Each one once, in the order first met; optional only when every
 * use is optional. References inside volume plugins' own secret fields (CSI, CephFS …) are not followed. Pure.
 */
public final class Dependencies {
    private static final String[] CONTAINER_LISTS = {"initContainers", "containers", "ephemeralContainers"};

    private Dependencies() {}

    /** Every dependency of the view's pod templates. */
    public static List<Dependency> of(WorkloadView view) {
        Found found = new Found();
        for (InstanceView i : view.podInstances()) {
            JsonNode spec = i.podTemplate().orElseThrow().path("spec");
            String at = i.specField().orElse("pod template of " + i.id() + " spec");
            found.spec(spec, at);
        }
        return found.list();
    }

    /** Every dependency of one pod spec ({@code spec} of a pod template), {@code at} naming where it is. */
    public static List<Dependency> ofPodSpec(JsonNode spec, String at) {
        Found found = new Found();
        found.spec(spec, at);
        return found.list();
    }

    private static final class Found {
        private final Map<String, Dependency> byKey = new LinkedHashMap<>();

        List<Dependency> list() {
            return new ArrayList<>(byKey.values());
        }

        void spec(JsonNode spec, String at) {
            String sa = text(spec.path("serviceAccountName"));
            if (sa.isEmpty()) {
                sa = text(spec.path("serviceAccount"));
            }
            if (!sa.isEmpty() && !sa.equals("default")) {
                add(Kind.SERVICE_ACCOUNT, sa, false, at + ".serviceAccountName");
            }
            int n = 0;
            for (JsonNode s : spec.path("imagePullSecrets")) {
                add(Kind.SECRET, text(s.path("name")), false, at + ".imagePullSecrets[" + n++ + "].name");
            }
            n = 0;
            for (JsonNode v : spec.path("volumes")) {
                volume(v, at + ".volumes[" + n++ + "]");
            }
            for (String list : CONTAINER_LISTS) {
                n = 0;
                for (JsonNode c : spec.path(list)) {
                    container(c, at + "." + list + "[" + n++ + "]");
                }
            }
        }

        private void volume(JsonNode v, String at) {
            ref(Kind.CONFIG_MAP, v.path("configMap"), "name", at + ".configMap.name");
            ref(Kind.SECRET, v.path("secret"), "secretName", at + ".secret.secretName");
            JsonNode claim = v.path("persistentVolumeClaim");
            if (claim.isObject()) {
                add(
                        Kind.PERSISTENT_VOLUME_CLAIM,
                        text(claim.path("claimName")),
                        false,
                        at + ".persistentVolumeClaim.claimName");
            }
            int n = 0;
            for (JsonNode source : v.path("projected").path("sources")) {
                String here = at + ".projected.sources[" + n++ + "]";
                ref(Kind.CONFIG_MAP, source.path("configMap"), "name", here + ".configMap.name");
                ref(Kind.SECRET, source.path("secret"), "name", here + ".secret.name");
            }
        }

        private void container(JsonNode c, String at) {
            int n = 0;
            for (JsonNode from : c.path("envFrom")) {
                String here = at + ".envFrom[" + n++ + "]";
                ref(Kind.CONFIG_MAP, from.path("configMapRef"), "name", here + ".configMapRef.name");
                ref(Kind.SECRET, from.path("secretRef"), "name", here + ".secretRef.name");
            }
            n = 0;
            for (JsonNode env : c.path("env")) {
                String here = at + ".env[" + n++ + "].valueFrom";
                ref(
                        Kind.CONFIG_MAP,
                        env.path("valueFrom").path("configMapKeyRef"),
                        "name",
                        here + ".configMapKeyRef.name");
                ref(Kind.SECRET, env.path("valueFrom").path("secretKeyRef"), "name", here + ".secretKeyRef.name");
            }
        }

        private void ref(Kind kind, JsonNode source, String nameField, String at) {
            if (source.isObject()) {
                add(kind, text(source.path(nameField)), source.path("optional").asBoolean(false), at);
            }
        }

        private void add(Kind kind, String name, boolean optional, String at) {
            if (name.isEmpty()) {
                return; // no name: the API server refuses such a pod; nothing to copy
            }
            String key = kind + "/" + name;
            Dependency known = byKey.get(key);
            if (known == null) {
                byKey.put(key, new Dependency(kind, name, optional, at));
            } else if (known.optional() && !optional) {
                byKey.put(key, new Dependency(kind, name, false, at));
            }
        }

        private static String text(JsonNode n) {
            return n.isTextual() ? n.asText() : "";
        }
    }
}
