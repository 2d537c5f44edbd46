package dev.cartograph.interpreter.podsecurity;

import static dev.cartograph.interpreter.podsecurity.Pods.fields;
import static dev.cartograph.interpreter.podsecurity.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One test per baseline rule of the Pod Security Standards, on small hand-written pods; the expected
 * field paths are written by hand from the pod spec next to them (a bare Pod's template is the object,
 * so its pod spec is at {@code spec}).
 */
@Timeout(30)
class BaselineChecksTest {

    @Test
    void anOrdinaryPodPassesBaseline() {
        assertThat(fields(
                        pod(
                                "{containers: [{name: c, image: x, ports: [{containerPort: 80}], securityContext: {runAsUser: 0}}],"
                                        + " volumes: [{name: d, emptyDir: {}}]}"),
                        Level.BASELINE))
                .isEmpty();
    }

    @Test
    void hostProcessIsRefusedAtPodAndContainerLevel() {
        assertThat(fields(
                        pod("{securityContext: {windowsOptions: {hostProcess: true}},"
                                + " containers: [{name: a, securityContext: {windowsOptions: {hostProcess: true}}},"
                                + " {name: b, securityContext: {windowsOptions: {hostProcess: false}}}]}"),
                        Level.BASELINE))
                .containsExactly(
                        "spec.securityContext.windowsOptions.hostProcess windowsHostProcess",
                        "spec.containers[0].securityContext.windowsOptions.hostProcess windowsHostProcess");
    }

    @Test
    void everyHostNamespaceIsRefusedAndFalseIsAllowed() {
        assertThat(fields(
                        pod("{hostNetwork: true, hostPID: true, hostIPC: true, containers: [{name: c}]}"),
                        Level.BASELINE))
                .containsExactly(
                        "spec.hostNetwork hostNamespaces",
                        "spec.hostPID hostNamespaces",
                        "spec.hostIPC hostNamespaces");
        assertThat(fields(pod("{hostNetwork: false, hostPID: false, containers: [{name: c}]}"), Level.BASELINE))
                .isEmpty();
    }

    @Test
    void privilegedContainersAreRefusedInInitRegularAndEphemeralContainers() {
        assertThat(fields(
                        pod("{initContainers: [{name: i, securityContext: {privileged: true}}],"
                                + " containers: [{name: a, securityContext: {privileged: false}},"
                                + " {name: b, securityContext: {privileged: true}}],"
                                + " ephemeralContainers: [{name: e, securityContext: {privileged: true}}]}"),
                        Level.BASELINE))
                .containsExactly(
                        "spec.initContainers[0].securityContext.privileged privileged",
                        "spec.containers[1].securityContext.privileged privileged",
                        "spec.ephemeralContainers[0].securityContext.privileged privileged");
    }

    @Test
    void capabilitiesBeyondTheRuntimeDefaultsAreRefusedOneByOne() {
        // NET_BIND_SERVICE and CHOWN are in the default set; SYS_ADMIN, IPC_LOCK and NET_RAW are not
        assertThat(fields(
                        pod("{containers: [{name: c, securityContext: {capabilities:"
                                + " {add: [NET_BIND_SERVICE, SYS_ADMIN, CHOWN, IPC_LOCK, NET_RAW], drop: [ALL]}}}]}"),
                        Level.BASELINE))
                .containsExactly(
                        "spec.containers[0].securityContext.capabilities.add[1] capabilities_baseline",
                        "spec.containers[0].securityContext.capabilities.add[3] capabilities_baseline",
                        "spec.containers[0].securityContext.capabilities.add[4] capabilities_baseline");
    }

    @Test
    void hostPathVolumesAreRefusedWithThePathInTheReason() {
        var violations = Pods.check(
                pod(
                        "{containers: [{name: c}], volumes: [{name: cache, emptyDir: {}}, {name: root, hostPath: {path: /}}]}"),
                Level.BASELINE);
        assertThat(violations).extracting(Violation::field).containsExactly("spec.volumes[1].hostPath");
        assertThat(violations.get(0).reason())
                .isEqualTo("volume 'root' mounts the node's path / (hostPath volumes are not allowed)");
        assertThat(violations.get(0).object()).isEqualTo("Pod ml/p");
    }

    @Test
    void hostPortsOtherThanZeroAreRefused() {
        assertThat(fields(
                        pod("{containers: [{name: c, ports: [{containerPort: 80}, {containerPort: 81, hostPort: 8081},"
                                + " {containerPort: 82, hostPort: 0}]}]}"),
                        Level.BASELINE))
                .containsExactly("spec.containers[0].ports[1].hostPort hostPorts");
    }

    @Test
    void probesAndLifecycleHandlersMayNotNameAnotherHost() {
        assertThat(fields(
                        pod("{containers: [{name: c,"
                                + " livenessProbe: {httpGet: {host: metadata.internal, port: 80}},"
                                + " readinessProbe: {tcpSocket: {host: '', port: 80}},"
                                + " lifecycle: {preStop: {tcpSocket: {host: 10.0.0.1, port: 22}}}}]}"),
                        Level.BASELINE))
                .containsExactly(
                        "spec.containers[0].livenessProbe.httpGet.host hostProbesAndHostLifecycle",
                        "spec.containers[0].lifecycle.preStop.tcpSocket.host hostProbesAndHostLifecycle");
    }

    @Test
    void appArmorOnlyRuntimeDefaultOrLocalhostInFieldsAndAnnotations() {
        assertThat(fields(Pods.yaml("""
                                apiVersion: v1
                                kind: Pod
                                metadata:
                                  name: p
                                  namespace: ml
                                  annotations:
                                    container.apparmor.security.beta.kubernetes.io/a: unconfined
                                    container.apparmor.security.beta.kubernetes.io/b: runtime/default
                                    container.apparmor.security.beta.kubernetes.io/c: localhost/mine
                                spec:
                                  securityContext: {appArmorProfile: {type: Unconfined}}
                                  containers:
                                    - {name: a, securityContext: {appArmorProfile: {type: Localhost, localhostProfile: mine}}}
                                    - {name: b, securityContext: {appArmorProfile: {type: Unconfined}}}
                                """), Level.BASELINE))
                .containsExactlyInAnyOrder(
                        "spec.securityContext.appArmorProfile.type appArmorProfile",
                        "spec.containers[1].securityContext.appArmorProfile.type appArmorProfile",
                        "metadata.annotations[\"container.apparmor.security.beta.kubernetes.io/a\"] appArmorProfile");
    }

    @Test
    void seLinuxAllowsOnlyTheContainerTypesAndNoUserOrRole() {
        assertThat(fields(
                        pod("{securityContext: {seLinuxOptions: {type: spc_t, level: 's0:c1'}},"
                                + " containers: [{name: a, securityContext: {seLinuxOptions: {type: container_init_t}}},"
                                + " {name: b, securityContext: {seLinuxOptions: {user: root, role: sysadm_r}}}]}"),
                        Level.BASELINE))
                .containsExactly(
                        "spec.securityContext.seLinuxOptions.type seLinuxOptions",
                        "spec.containers[1].securityContext.seLinuxOptions.user seLinuxOptions",
                        "spec.containers[1].securityContext.seLinuxOptions.role seLinuxOptions");
    }

    @Test
    void procMountMustBeDefaultUnlessThePodHasItsOwnUserNamespace() {
        String containers = "containers: [{name: a, securityContext: {procMount: Unmasked}},"
                + " {name: b, securityContext: {procMount: Default}}]";
        assertThat(fields(pod("{" + containers + "}"), Level.BASELINE))
                .containsExactly("spec.containers[0].securityContext.procMount procMount");
        assertThat(fields(pod("{hostUsers: false, " + containers + "}"), Level.BASELINE))
                .isEmpty();
    }

    @Test
    void seccompUnconfinedIsRefusedAndAnUnsetProfileIsAllowed() {
        assertThat(fields(
                        pod("{securityContext: {seccompProfile: {type: Unconfined}},"
                                + " containers: [{name: a}, {name: b, securityContext: {seccompProfile: {type: Unconfined}}},"
                                + " {name: c, securityContext: {seccompProfile: {type: RuntimeDefault}}}]}"),
                        Level.BASELINE))
                .containsExactly(
                        "spec.securityContext.seccompProfile.type seccompProfile_baseline",
                        "spec.containers[1].securityContext.seccompProfile.type seccompProfile_baseline");
    }

    @Test
    void onlySafeSysctls() {
        // net.ipv4.tcp_keepalive_time is safe since 1.29, tcp_notsent_lowat since 1.37; kernel.msgmax never
        assertThat(fields(
                        pod("{securityContext: {sysctls: [{name: net.ipv4.tcp_keepalive_time, value: '60'},"
                                + " {name: kernel.msgmax, value: '65536'}, {name: net.ipv4.tcp_notsent_lowat, value: '1'}]},"
                                + " containers: [{name: c}]}"),
                        Level.BASELINE))
                .containsExactly("spec.securityContext.sysctls[1].name sysctls");
    }

    @Test
    void aPodThatNamesItsNodeIsRefusedAtEveryLevel() {
        var named = pod("{nodeName: gpu-7, containers: [{name: c}]}");
        for (Level level : Level.values()) {
            assertThat(fields(named, level)).as("%s", level).contains("spec.nodeName nodeName");
        }
        assertThat(Pods.check(named, Level.PRIVILEGED))
                .singleElement()
                .extracting(Violation::reason)
                .isEqualTo("names node 'gpu-7' itself, which would bypass placement; use a nodeSelector or node"
                        + " affinity instead");
    }

    @Test
    void privilegedChecksNothingElse() {
        assertThat(fields(
                        pod(
                                "{hostNetwork: true, hostPID: true, containers: [{name: c, securityContext: {privileged: true}}],"
                                        + " volumes: [{name: root, hostPath: {path: /}}]}"),
                        Level.PRIVILEGED))
                .isEmpty();
    }
}
