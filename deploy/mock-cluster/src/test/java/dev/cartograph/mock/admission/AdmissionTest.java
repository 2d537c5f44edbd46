package dev.cartograph.mock.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.mock.admission.AdmissionRule.Operation;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AdmissionTest {
    private static final Admission EDGE = Admission.of(List.of(
            AdmissionRule.denying("PyTorchJob", "PyTorchJobs are not allowed on the edge"),
            AdmissionRule.denying("JobSet", "JobSets may not change in ml")
                    .inNamespace("ml")
                    .byWebhook("jobsets.policy.example.com")
                    .on(Set.of(Operation.UPDATE))));

    @Test
    void deniesCreatesAndUpdatesOfTheKindInEveryNamespace() {
        assertThat(EDGE.review(Operation.CREATE, "PyTorchJob", "ml"))
                .contains(new AdmissionDenial(
                        "validate.policy.cartograph.dev", "PyTorchJobs are not allowed on the edge"));
        assertThat(EDGE.review(Operation.UPDATE, "PyTorchJob", "team-a")).isPresent();
        assertThat(EDGE.review(Operation.CREATE, "TFJob", "ml")).isEmpty();
    }

    @Test
    void aRuleForOneNamespaceAndOperationDeniesOnlyThat() {
        assertThat(EDGE.review(Operation.UPDATE, "JobSet", "ml"))
                .contains(new AdmissionDenial("jobsets.policy.example.com", "JobSets may not change in ml"));
        assertThat(EDGE.review(Operation.CREATE, "JobSet", "ml")).isEmpty();
        assertThat(EDGE.review(Operation.UPDATE, "JobSet", "dev")).isEmpty();
    }

    @Test
    void theDenialIsTheStatusAWebhookRefusalGets() throws Exception {
        AdmissionDenial denial = new AdmissionDenial("deny.example.com", "no \"GPUs\" here");

        JsonNode status = new ObjectMapper().readTree(denial.statusJson());

        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(status.path("status").asText()).isEqualTo("Failure");
        assertThat(status.path("reason").asText()).isEqualTo("Forbidden");
        assertThat(status.path("code").asInt()).isEqualTo(403);
        assertThat(status.path("message").asText())
                .isEqualTo("admission webhook \"deny.example.com\" denied the request: no \"GPUs\" here");
        assertThat(status.has("details")).isFalse(); // a webhook's refusal carries none
    }

    @Test
    void aRuleNeedsAKindAMessageAndAnOperation() {
        assertThatThrownBy(() -> AdmissionRule.denying(" ", "m")).hasMessageContaining("kind");
        assertThatThrownBy(() -> AdmissionRule.denying("Job", "")).hasMessageContaining("message");
        assertThatThrownBy(() -> AdmissionRule.denying("Job", "m").on(Set.of())).hasMessageContaining("operations");
        assertThat(Admission.of(List.of()).admitsEverything()).isTrue();
    }
}
