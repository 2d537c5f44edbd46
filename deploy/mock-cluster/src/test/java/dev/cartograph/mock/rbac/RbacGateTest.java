package dev.cartograph.mock.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RbacGateTest {
    static final RbacGate GATE =
            new RbacGate(Rbac.enforcing(RbacPolicyTest.POLICY, Map.of("agent-token", RbacPolicyTest.AGENT)));

    @Test
    void aKnownTokenIsHeldToItsUsersRbacAndEveryDenialIsRecorded() {
        RbacGate gate = new RbacGate(Rbac.enforcing(RbacPolicyTest.POLICY, Map.of("t", RbacPolicyTest.AGENT)));
        assertThat(gate.check("GET", "/api/v1/pods?watch=true", "Bearer t")).isEmpty();
        assertThat(gate.check("POST", "/apis/batch/v1/namespaces/research/jobs", "Bearer t"))
                .map(Denial::message)
                .contains("jobs.batch is forbidden: User \"" + RbacPolicyTest.AGENT
                        + "\" cannot create resource \"jobs\" in API group \"batch\" in the namespace \"research\"");
        assertThat(gate.denials()).hasSize(1);
    }

    @Test
    void noTokenAnUnknownTokenOrRbacOffIsTheServersOwnClientAndAllowed() {
        String delete = "/apis/batch/v1/namespaces/research/jobs/x";
        assertThat(GATE.check("DELETE", delete, null)).isEmpty();
        assertThat(GATE.check("DELETE", delete, "Bearer someone-else")).isEmpty();
        assertThat(GATE.check("DELETE", delete, "Basic YWdlbnQ6eA==")).isEmpty();
        assertThat(new RbacGate(Rbac.OFF).check("DELETE", delete, "Bearer agent-token"))
                .isEmpty();
        assertThat(GATE.check("DELETE", delete, "Bearer agent-token")).isPresent();
    }
}
