package dev.cartograph.mock.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Expected bodies written by hand from kube-apiserver's responsewriters.Forbidden and apierrors.NewForbidden. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DenialTest {
    static final String AGENT = "system:serviceaccount:cartograph-system:cartograph-agent";

    @Test
    void aDeniedNamedRequestAnswersTheApiServersStatusWordForWord() {
        Denial denial = new Denial(AGENT, RequestAttributes.of("DELETE", "/apis/batch/v1/namespaces/ml/jobs/x"));
        assertThat(denial.statusJson())
                .isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"jobs.batch \\\"x\\\" is forbidden: User \\\"" + AGENT
                        + "\\\" cannot delete resource \\\"jobs\\\" in API group \\\"batch\\\" in the namespace \\\"ml\\\"\","
                        + "\"reason\":\"Forbidden\",\"details\":{\"name\":\"x\",\"group\":\"batch\",\"kind\":\"jobs\"},"
                        + "\"code\":403}");
    }

    @Test
    void aCreateHasNoNameInTheUrlSoTheMessageNamesNoObject() {
        Denial denial = new Denial(
                AGENT, RequestAttributes.of("POST", "/apis/kubeflow.org/v1/namespaces/research/pytorchjobs"));
        assertThat(denial.message())
                .isEqualTo(
                        "pytorchjobs.kubeflow.org is forbidden: User \"" + AGENT
                                + "\" cannot create resource \"pytorchjobs\" in API group \"kubeflow.org\" in the namespace \"research\"");
    }

    @Test
    void coreClusterScopedSubresourceAndNonResourceDenialsReadAsTheApiServerWritesThem() {
        assertThat(new Denial(AGENT, RequestAttributes.of("GET", "/api/v1/nodes?watch=true")).message())
                .isEqualTo("nodes is forbidden: User \"" + AGENT
                        + "\" cannot watch resource \"nodes\" in API group \"\" at the cluster scope");
        assertThat(new Denial(AGENT, RequestAttributes.of("PATCH", "/apis/ray.io/v1/namespaces/ml/rayjobs/r/status"))
                        .message())
                .isEqualTo(
                        "rayjobs.ray.io \"r\" is forbidden: User \"" + AGENT
                                + "\" cannot patch resource \"rayjobs/status\" in API group \"ray.io\" in the namespace \"ml\"");
        Denial path = new Denial(AGENT, RequestAttributes.of("GET", "/metrics"));
        assertThat(path.message()).isEqualTo("forbidden: User \"" + AGENT + "\" cannot get path \"/metrics\"");
        assertThat(path.statusJson()).contains("\"details\":{}");
    }
}
