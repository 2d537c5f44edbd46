package dev.cartograph.kube.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionConditionBuilder;
import org.junit.jupiter.api.Test;

/** The conditions as kube-apiserver's CRD controllers set them (apiextensions-apiserver's naming controller). */
class CrdEstablishmentTest {
    private static CustomResourceDefinition crd(CustomResourceDefinitionCondition... conditions) {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("pytorchjobs.kubeflow.org")
                .endMetadata()
                .withNewStatus()
                .withConditions(conditions)
                .endStatus()
                .build();
    }

    private static CustomResourceDefinitionCondition condition(
            String type, String status, String reason, String message) {
        return new CustomResourceDefinitionConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .build();
    }

    @Test
    void establishedOnceTheServerSaysSo() {
        assertThat(CrdEstablishment.of(crd(
                        condition("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
                        condition(
                                "Established",
                                "True",
                                "InitialNamesAccepted",
                                "the initial names have been accepted"))))
                .isEqualTo(new CrdEstablishment.Established());
    }

    @Test
    void aCrdTheServerHasNotLookedAtIsPendingWithNothingToSay() {
        CustomResourceDefinition bare = new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("pytorchjobs.kubeflow.org")
                .endMetadata()
                .build();
        assertThat(CrdEstablishment.of(bare)).isEqualTo(new CrdEstablishment.Pending(""));
        assertThat(CrdEstablishment.of(crd())).isEqualTo(new CrdEstablishment.Pending(""));
    }

    @Test
    void namesAcceptedButNotYetEstablishedIsPendingAndSaysWhatItHas() {
        assertThat(CrdEstablishment.of(crd(
                        condition("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
                        condition("Established", "False", "Installing", "the initial names have been accepted"))))
                .isEqualTo(new CrdEstablishment.Pending("NamesAccepted=True (NoConflicts: no conflicts found),"
                        + " Established=False (Installing: the initial names have been accepted)"));
    }

    @Test
    void namesTheServerRefusesEndTheWaitWithItsReason() {
        assertThat(CrdEstablishment.of(crd(
                        condition("NamesAccepted", "False", "KindConflict", "\"PyTorchJob\" is already in use"),
                        condition("Established", "False", "NotAccepted", "not all names are accepted"))))
                .isEqualTo(new CrdEstablishment.NamesRefused("KindConflict: \"PyTorchJob\" is already in use"));
    }
}
