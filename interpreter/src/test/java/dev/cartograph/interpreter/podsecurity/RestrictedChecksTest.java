package dev.cartograph.interpreter.podsecurity;

import static dev.cartograph.interpreter.podsecurity.Pods.fields;
import static dev.cartograph.interpreter.podsecurity.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One test per rule restricted adds to baseline, on small hand-written pods; field paths written by hand. */
@Timeout(30)
class RestrictedChecksTest {
    /** What a container needs to pass restricted. */
    static final String HARDENED = "securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}";

    static final String POD_CONTEXT = "securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}";

    @Test
    void aHardenedPodPassesRestricted() {
        assertThat(fields(
                        pod("{" + POD_CONTEXT + ", containers: [{name: c, " + HARDENED + "}],"
                                + " volumes: [{name: a, configMap: {name: x}}, {name: b, persistentVolumeClaim: {claimName: y}},"
                                + " {name: c, emptyDir: {}}, {name: d, projected: {sources: []}}, {name: e}]}"),
                        Level.RESTRICTED))
                .isEmpty();
    }

    @Test
    void anOrdinaryContainerMissesFourThings() {
        // hand count: escalation not off, no seccomp profile, ALL not dropped, not non-root
        assertThat(fields(pod("{containers: [{name: c, image: x}]}"), Level.RESTRICTED))
                .containsExactly(
                        "spec.containers[0].securityContext.allowPrivilegeEscalation allowPrivilegeEscalation",
                        "spec.containers[0].securityContext.seccompProfile seccompProfile_restricted",
                        "spec.containers[0].securityContext.capabilities.drop capabilities_restricted",
                        "spec.containers[0].securityContext.runAsNonRoot runAsNonRoot");
    }

    @Test
    void volumesBeyondTheAllowedTypesAreRefusedAndHostPathOnlyOnce() {
        assertThat(fields(
                        pod("{" + POD_CONTEXT + ", containers: [{name: c, " + HARDENED + "}],"
                                + " volumes: [{name: n, nfs: {server: s, path: /}}, {name: h, hostPath: {path: /var}},"
                                + " {name: s, secret: {secretName: x}}]}"),
                        Level.RESTRICTED))
                .containsExactly("spec.volumes[0].nfs restrictedVolumes", "spec.volumes[1].hostPath restrictedVolumes");
    }

    @Test
    void privilegeEscalationMustBeExplicitlyOff() {
        assertThat(fields(
                        pod("{" + POD_CONTEXT
                                + ", containers: [{name: a, securityContext: {allowPrivilegeEscalation: true,"
                                + " capabilities: {drop: [ALL]}}}, {name: b, " + HARDENED + "}]}"),
                        Level.RESTRICTED))
                .containsExactly(
                        "spec.containers[0].securityContext.allowPrivilegeEscalation allowPrivilegeEscalation");
    }

    @Test
    void runAsNonRootMayBeSetOnThePodOrEachContainerButNeverFalse() {
        String seccomp = "securityContext: {seccompProfile: {type: RuntimeDefault}";
        assertThat(fields(
                        pod("{" + seccomp
                                + "}, containers: [{name: a, securityContext: {allowPrivilegeEscalation: false,"
                                + " capabilities: {drop: [ALL]}, runAsNonRoot: true}}, {name: b, " + HARDENED + "}]}"),
                        Level.RESTRICTED))
                .containsExactly("spec.containers[1].securityContext.runAsNonRoot runAsNonRoot");
        assertThat(fields(
                        pod("{" + seccomp + ", runAsNonRoot: false}, containers: [{name: a, " + HARDENED + "}]}"),
                        Level.RESTRICTED))
                .containsExactly("spec.securityContext.runAsNonRoot runAsNonRoot");
    }

    @Test
    void runAsUserZeroIsRefusedAtPodAndContainerLevel() {
        assertThat(fields(
                        pod(
                                "{securityContext: {runAsNonRoot: true, runAsUser: 0, seccompProfile: {type: Localhost,"
                                        + " localhostProfile: p.json}}, containers: [{name: a, securityContext: {runAsUser: 0,"
                                        + " allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}, {name: b, securityContext:"
                                        + " {runAsUser: 1000, allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}]}"),
                        Level.RESTRICTED))
                .containsExactly(
                        "spec.securityContext.runAsUser runAsUser",
                        "spec.containers[0].securityContext.runAsUser runAsUser");
    }

    @Test
    void aPodInItsOwnUserNamespaceMayRunAsRootButStillNotUnmaskProc() {
        assertThat(fields(
                        pod(
                                "{hostUsers: false, securityContext: {runAsUser: 0, seccompProfile: {type: RuntimeDefault}},"
                                        + " containers: [{name: a, securityContext: {allowPrivilegeEscalation: false, procMount: Unmasked,"
                                        + " capabilities: {drop: [ALL]}}}]}"),
                        Level.RESTRICTED))
                .containsExactly("spec.containers[0].securityContext.procMount procMount_restricted");
    }

    @Test
    void seccompMustBeSetAndAContainerInheritingAWrongPodProfileIsNotCountedTwice() {
        assertThat(fields(
                        pod("{securityContext: {runAsNonRoot: true, seccompProfile: {type: Unconfined}},"
                                + " containers: [{name: a, " + HARDENED
                                + "}, {name: b, securityContext: {allowPrivilegeEscalation:"
                                + " false, capabilities: {drop: [ALL]}, seccompProfile: {type: RuntimeDefault}}}]}"),
                        Level.RESTRICTED))
                .containsExactly("spec.securityContext.seccompProfile.type seccompProfile_restricted");
    }

    @Test
    void capabilitiesMustDropAllAndMayAddOnlyNetBindService() {
        assertThat(fields(
                        pod("{" + POD_CONTEXT
                                + ", containers: [{name: a, securityContext: {allowPrivilegeEscalation: false,"
                                + " capabilities: {drop: [NET_RAW], add: [NET_BIND_SERVICE, CHOWN]}}}]}"),
                        Level.RESTRICTED))
                .containsExactly(
                        "spec.containers[0].securityContext.capabilities.drop capabilities_restricted",
                        "spec.containers[0].securityContext.capabilities.add[1] capabilities_restricted");
    }

    @Test
    void windowsPodsSkipTheLinuxOnlyChecks() {
        assertThat(fields(
                        pod("{os: {name: windows}, securityContext: {runAsNonRoot: true}, containers: [{name: c}]}"),
                        Level.RESTRICTED))
                .isEmpty();
    }

    @Test
    void restrictedStillRefusesWhatBaselineRefuses() {
        assertThat(fields(
                        pod(
                                "{hostNetwork: true, " + POD_CONTEXT + ", containers: [{name: c, securityContext:"
                                        + " {privileged: true, allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}]}"),
                        Level.RESTRICTED))
                .containsExactly(
                        "spec.hostNetwork hostNamespaces", "spec.containers[0].securityContext.privileged privileged");
    }
}
