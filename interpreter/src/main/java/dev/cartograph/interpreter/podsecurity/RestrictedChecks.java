package dev.cartograph.interpreter.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * What the restricted Pod Security Standard adds to baseline, check by check as
 * {@code k8s.io/pod-security-admission/policy} has them at version {@code latest}: volume types,
 * privilege escalation, non-root, runAsUser, seccomp, capabilities. Windows pods skip the Linux-only
 * checks, and pods in a user namespace ({@code hostUsers: false}) the non-root ones, as upstream. Pure.
 */
final class RestrictedChecks {
    /** check_restrictedVolumes.go: the inline volume sources restricted allows. */
    static final Set<String> VOLUME_TYPES = Set.of(
            "configMap",
            "csi",
            "downwardAPI",
            "emptyDir",
            "ephemeral",
            "image",
            "persistentVolumeClaim",
            "projected",
            "secret");

    /** Every other volume source the Kubernetes API knows. */
    static final List<String> OTHER_VOLUME_TYPES = List.of(
            "hostPath",
            "gcePersistentDisk",
            "awsElasticBlockStore",
            "gitRepo",
            "nfs",
            "iscsi",
            "glusterfs",
            "rbd",
            "flexVolume",
            "cinder",
            "cephfs",
            "flocker",
            "fc",
            "azureFile",
            "vsphereVolume",
            "quobyte",
            "azureDisk",
            "portworxVolume",
            "photonPersistentDisk",
            "scaleIO",
            "storageos");

    private RestrictedChecks() {}

    static void check(Template t) {
        volumes(t);
        if (!t.windows()) { // upstream skips these for Windows pods; the baseline ones they replace do not run either
            privilegeEscalation(t);
            seccomp(t);
            capabilities(t);
        }
        if (!t.inUserNamespace()) {
            runAsNonRoot(t);
            runAsUser(t);
        }
    }

    /**
     * A volume with a source restricted does not allow. (The API server defaults a volume with no source it
     * knows to emptyDir, which is allowed; one naming a forbidden source is refused even if it names an allowed
     * one too, which the API server would refuse anyway.)
     */
    private static void volumes(Template t) {
        JsonNode volumes = t.spec().path("volumes");
        for (int i = 0; i < volumes.size(); i++) {
            JsonNode v = volumes.get(i);
            for (Iterator<String> keys = v.fieldNames(); keys.hasNext(); ) {
                String type = keys.next();
                if (OTHER_VOLUME_TYPES.contains(type) && Template.isSet(v.path(type))) {
                    t.refuse(
                            "volumes[" + i + "]." + type,
                            "restrictedVolumes",
                            "volume '" + v.path("name").asText() + "' is of type " + type
                                    + "; restricted allows only configMap, csi, downwardAPI, emptyDir, ephemeral,"
                                    + " image, persistentVolumeClaim, projected and secret volumes");
                }
            }
        }
    }

    private static void privilegeEscalation(Template t) {
        for (Template.Container c : t.containers()) {
            if (!Template.isFalse(c.securityContext().path("allowPrivilegeEscalation"))) {
                t.refuse(
                        c.field() + ".securityContext.allowPrivilegeEscalation",
                        "allowPrivilegeEscalation",
                        c.describe() + " must set allowPrivilegeEscalation: false");
            }
        }
    }

    private static void runAsNonRoot(Template t) {
        JsonNode pod = t.spec().path("securityContext").path("runAsNonRoot");
        boolean podFalse = Template.isSet(pod) && !Template.isTrue(pod);
        if (podFalse) {
            t.refuse(
                    "securityContext.runAsNonRoot",
                    "runAsNonRoot",
                    "the pod sets runAsNonRoot: false; restricted pods run as non-root users");
        }
        for (Template.Container c : t.containers()) {
            JsonNode own = c.securityContext().path("runAsNonRoot");
            if (Template.isSet(own) && !Template.isTrue(own)) {
                t.refuse(
                        c.field() + ".securityContext.runAsNonRoot",
                        "runAsNonRoot",
                        c.describe() + " sets runAsNonRoot: false; restricted pods run as non-root users");
            } else if (!Template.isSet(own) && !Template.isTrue(pod) && !podFalse) {
                t.refuse(
                        c.field() + ".securityContext.runAsNonRoot",
                        "runAsNonRoot",
                        c.describe() + " must set runAsNonRoot: true (here or in the pod's securityContext)");
            }
        }
    }

    private static void runAsUser(Template t) {
        if (isZero(t.spec().path("securityContext").path("runAsUser"))) {
            t.refuse("securityContext.runAsUser", "runAsUser", "the pod runs as root (runAsUser: 0)");
        }
        for (Template.Container c : t.containers()) {
            if (isZero(c.securityContext().path("runAsUser"))) {
                t.refuse(
                        c.field() + ".securityContext.runAsUser",
                        "runAsUser",
                        c.describe() + " runs as root (runAsUser: 0)");
            }
        }
    }

    private static boolean isZero(JsonNode node) {
        return Template.isSet(node) && node.asText().strip().equals("0");
    }

    private static void seccomp(Template t) {
        JsonNode podContext = t.spec().path("securityContext");
        BaselineChecks.seccompProfile(t, "seccompProfile_restricted", "securityContext", podContext, "the pod");
        boolean podSet = Template.isSet(podContext.path("seccompProfile"));
        for (Template.Container c : t.containers()) {
            boolean own = Template.isSet(c.securityContext().path("seccompProfile"));
            if (own) {
                BaselineChecks.seccompProfile(
                        t,
                        "seccompProfile_restricted",
                        c.field() + ".securityContext",
                        c.securityContext(),
                        c.describe());
            } else if (!podSet) { // one that inherits a wrong pod profile is refused with the pod
                t.refuse(
                        c.field() + ".securityContext.seccompProfile",
                        "seccompProfile_restricted",
                        c.describe() + " must set seccompProfile.type to RuntimeDefault or Localhost"
                                + " (here or in the pod's securityContext)");
            }
        }
    }

    private static void capabilities(Template t) {
        for (Template.Container c : t.containers()) {
            JsonNode capabilities = c.securityContext().path("capabilities");
            boolean dropsAll = false;
            for (JsonNode d : capabilities.path("drop")) {
                dropsAll |= d.asText().equals("ALL");
            }
            if (!dropsAll) {
                t.refuse(
                        c.field() + ".securityContext.capabilities.drop",
                        "capabilities_restricted",
                        c.describe() + " must drop ALL capabilities (capabilities.drop: [ALL])");
            }
            JsonNode add = capabilities.path("add");
            for (int i = 0; i < add.size(); i++) {
                if (!add.get(i).asText().equals("NET_BIND_SERVICE")) {
                    t.refuse(
                            c.field() + ".securityContext.capabilities.add[" + i + "]",
                            "capabilities_restricted",
                            c.describe() + " adds capability " + add.get(i).asText()
                                    + "; restricted allows adding only NET_BIND_SERVICE");
                }
            }
        }
    }
}
