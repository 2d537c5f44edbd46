package dev.cartograph.interpreter.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The baseline Pod Security Standard, check by check as {@code k8s.io/pod-security-admission/policy} has
 * them at version {@code latest} (the allowed values are copied from there). At restricted, the checks the
 * restricted standard overrides (capabilities, hostPath, seccomp, /proc mount) are left to
 * {@link RestrictedChecks}. Pure.
 */
final class BaselineChecks {
    /** check_capabilities_baseline.go: the container runtime's default set. */
    static final Set<String> CAPABILITIES = Set.of(
            "AUDIT_WRITE",
            "CHOWN",
            "DAC_OVERRIDE",
            "FOWNER",
            "FSETID",
            "KILL",
            "MKNOD",
            "NET_BIND_SERVICE",
            "SETFCAP",
            "SETGID",
            "SETPCAP",
            "SETUID",
            "SYS_CHROOT");

    /** check_sysctls.go, v1.37: the sysctls that are namespaced and isolated from other pods. */
    static final Set<String> SAFE_SYSCTLS = Set.of(
            "kernel.shm_rmid_forced",
            "net.ipv4.ip_local_port_range",
            "net.ipv4.tcp_syncookies",
            "net.ipv4.ping_group_range",
            "net.ipv4.ip_unprivileged_port_start",
            "net.ipv4.ip_local_reserved_ports",
            "net.ipv4.tcp_keepalive_time",
            "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl",
            "net.ipv4.tcp_keepalive_probes",
            "net.ipv4.tcp_rmem",
            "net.ipv4.tcp_wmem",
            "net.ipv4.tcp_slow_start_after_idle",
            "net.ipv4.tcp_notsent_lowat");

    /** check_seLinuxOptions.go, v1.31 (the empty type is allowed too). */
    static final Set<String> SELINUX_TYPES =
            Set.of("container_t", "container_init_t", "container_kvm_t", "container_engine_t");

    /** Seccomp and AppArmor profile types baseline allows. */
    static final Set<String> PROFILE_TYPES = Set.of("RuntimeDefault", "Localhost");

    private static final String APPARMOR_ANNOTATION = "container.apparmor.security.beta.kubernetes.io/";
    private static final Map<String, String> HOST_NAMESPACES =
            Map.of("hostNetwork", "network", "hostPID", "process (PID)", "hostIPC", "IPC");

    private BaselineChecks() {}

    static void check(Template t, boolean restricted) {
        hostProcess(t);
        hostNamespaces(t);
        privileged(t);
        if (!restricted) {
            capabilities(t);
            hostPathVolumes(t);
            seccomp(t);
        }
        hostPorts(t);
        probeHosts(t);
        appArmor(t);
        seLinux(t);
        procMount(t, restricted);
        sysctls(t);
    }

    private static void hostProcess(Template t) {
        if (Template.isTrue(
                t.spec().path("securityContext").path("windowsOptions").path("hostProcess"))) {
            t.refuse("securityContext.windowsOptions.hostProcess", "windowsHostProcess", hostProcessReason("the pod"));
        }
        for (Template.Container c : t.containers()) {
            if (Template.isTrue(c.securityContext().path("windowsOptions").path("hostProcess"))) {
                t.refuse(
                        c.field() + ".securityContext.windowsOptions.hostProcess",
                        "windowsHostProcess",
                        hostProcessReason(c.describe()));
            }
        }
    }

    private static String hostProcessReason(String who) {
        return who + " runs as a Windows HostProcess container, with full access to the node";
    }

    private static void hostNamespaces(Template t) {
        for (String field : List.of("hostNetwork", "hostPID", "hostIPC")) {
            if (Template.isTrue(t.spec().path(field))) {
                t.refuse(
                        field,
                        "hostNamespaces",
                        "the pod shares the node's " + HOST_NAMESPACES.get(field) + " namespace (" + field + ": true)");
            }
        }
    }

    private static void privileged(Template t) {
        for (Template.Container c : t.containers()) {
            if (Template.isTrue(c.securityContext().path("privileged"))) {
                t.refuse(
                        c.field() + ".securityContext.privileged",
                        "privileged",
                        c.describe() + " runs privileged, with every device and capability of the node");
            }
        }
    }

    private static void capabilities(Template t) {
        for (Template.Container c : t.containers()) {
            JsonNode add = c.securityContext().path("capabilities").path("add");
            for (int i = 0; i < add.size(); i++) {
                String capability = add.get(i).asText();
                if (!CAPABILITIES.contains(capability)) {
                    t.refuse(
                            c.field() + ".securityContext.capabilities.add[" + i + "]",
                            "capabilities_baseline",
                            c.describe() + " adds capability " + capability
                                    + ", beyond the container runtime's defaults that baseline allows");
                }
            }
        }
    }

    private static void hostPathVolumes(Template t) {
        JsonNode volumes = t.spec().path("volumes");
        for (int i = 0; i < volumes.size(); i++) {
            JsonNode hostPath = volumes.get(i).path("hostPath");
            if (Template.isSet(hostPath)) {
                t.refuse(
                        "volumes[" + i + "].hostPath",
                        "hostPathVolumes",
                        "volume '" + volumes.get(i).path("name").asText() + "' mounts the node's path "
                                + hostPath.path("path").asText("") + " (hostPath volumes are not allowed)");
            }
        }
    }

    private static void hostPorts(Template t) {
        for (Template.Container c : t.containers()) {
            JsonNode ports = c.node().path("ports");
            for (int i = 0; i < ports.size(); i++) {
                JsonNode port = ports.get(i).path("hostPort");
                if (Template.isSet(port) && !port.asText().equals("0")) {
                    t.refuse(
                            c.field() + ".ports[" + i + "].hostPort",
                            "hostPorts",
                            c.describe() + " takes port " + port.asText() + " of the node (hostPort)");
                }
            }
        }
    }

    private static void probeHosts(Template t) {
        for (Template.Container c : t.containers()) {
            for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
                probeHost(t, c, probe, c.node().path(probe));
            }
            for (String hook : List.of("postStart", "preStop")) {
                probeHost(t, c, "lifecycle." + hook, c.node().path("lifecycle").path(hook));
            }
        }
    }

    private static void probeHost(Template t, Template.Container c, String field, JsonNode handler) {
        for (String action : List.of("httpGet", "tcpSocket")) {
            String host = handler.path(action).path("host").asText("");
            if (!host.isEmpty()) {
                t.refuse(
                        c.field() + "." + field + "." + action + ".host",
                        "hostProbesAndHostLifecycle",
                        c.describe() + " points its " + field + " at host '" + host
                                + "'; probes and lifecycle handlers may only reach the pod itself");
            }
        }
    }

    private static void appArmor(Template t) {
        appArmorProfile(t, "securityContext", t.spec().path("securityContext"), "the pod");
        for (Template.Container c : t.containers()) {
            appArmorProfile(t, c.field() + ".securityContext", c.securityContext(), c.describe());
        }
        JsonNode annotations = t.metadata().path("annotations");
        for (Iterator<Map.Entry<String, JsonNode>> it = annotations.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String value = e.getValue().asText("");
            if (e.getKey().startsWith(APPARMOR_ANNOTATION)
                    && !value.isEmpty()
                    && !value.equals("runtime/default")
                    && !value.startsWith("localhost/")) {
                t.refuseMetadata(
                        "annotations[\"" + e.getKey() + "\"]",
                        "appArmorProfile",
                        "AppArmor profile '" + value + "' is not allowed (only runtime/default or localhost/*)");
            }
        }
    }

    private static void appArmorProfile(Template t, String field, JsonNode securityContext, String who) {
        JsonNode profile = securityContext.path("appArmorProfile");
        String type = profile.path("type").asText("");
        if (Template.isSet(profile) && !PROFILE_TYPES.contains(type)) {
            t.refuse(
                    field + ".appArmorProfile.type",
                    "appArmorProfile",
                    who + " sets AppArmor profile type '" + type + "' (only RuntimeDefault or Localhost)");
        }
    }

    private static void seLinux(Template t) {
        seLinuxOptions(t, "securityContext", t.spec().path("securityContext"), "the pod");
        for (Template.Container c : t.containers()) {
            seLinuxOptions(t, c.field() + ".securityContext", c.securityContext(), c.describe());
        }
    }

    private static void seLinuxOptions(Template t, String field, JsonNode securityContext, String who) {
        JsonNode options = securityContext.path("seLinuxOptions");
        String type = options.path("type").asText("");
        if (!type.isEmpty() && !SELINUX_TYPES.contains(type)) {
            t.refuse(
                    field + ".seLinuxOptions.type",
                    "seLinuxOptions",
                    who + " sets SELinux type '" + type
                            + "' (only container_t, container_init_t, container_kvm_t or container_engine_t)");
        }
        for (String key : List.of("user", "role")) {
            if (!options.path(key).asText("").isEmpty()) {
                t.refuse(
                        field + ".seLinuxOptions." + key,
                        "seLinuxOptions",
                        who + " sets a custom SELinux " + key + ", which is not allowed");
            }
        }
    }

    /** Baseline lets a pod in a user namespace set any /proc mount type; restricted does not (procMount_restricted). */
    private static void procMount(Template t, boolean restricted) {
        if (!restricted && t.inUserNamespace()) {
            return;
        }
        for (Template.Container c : t.containers()) {
            String type = c.securityContext().path("procMount").asText("");
            if (Template.isSet(c.securityContext().path("procMount")) && !type.equals("Default")) {
                t.refuse(
                        c.field() + ".securityContext.procMount",
                        restricted ? "procMount_restricted" : "procMount",
                        c.describe() + " sets /proc mount type '" + type + "' (only Default"
                                + (restricted ? "" : ", unless the pod sets hostUsers: false") + ")");
            }
        }
    }

    private static void seccomp(Template t) {
        seccompProfile(t, "seccompProfile_baseline", "securityContext", t.spec().path("securityContext"), "the pod");
        for (Template.Container c : t.containers()) {
            seccompProfile(
                    t, "seccompProfile_baseline", c.field() + ".securityContext", c.securityContext(), c.describe());
        }
    }

    /** A seccomp profile that is set must be RuntimeDefault or Localhost (shared with the restricted check). */
    static boolean seccompProfile(Template t, String check, String field, JsonNode securityContext, String who) {
        JsonNode profile = securityContext.path("seccompProfile");
        String type = profile.path("type").asText("");
        if (Template.isSet(profile) && !PROFILE_TYPES.contains(type)) {
            t.refuse(
                    field + ".seccompProfile.type",
                    check,
                    who + " sets seccomp profile type '" + type + "' (only RuntimeDefault or Localhost)");
            return false;
        }
        return true;
    }

    private static void sysctls(Template t) {
        JsonNode sysctls = t.spec().path("securityContext").path("sysctls");
        for (int i = 0; i < sysctls.size(); i++) {
            String name = sysctls.get(i).path("name").asText("");
            if (!SAFE_SYSCTLS.contains(name)) {
                t.refuse(
                        "securityContext.sysctls[" + i + "].name",
                        "sysctls",
                        "sysctl '" + name + "' is not in the safe set (namespaced and isolated from other pods)");
            }
        }
    }
}
