package dev.cartograph.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class MetadataKeysTest {
    /** Users, kubectl columns, docs and objects already on clusters carry these spellings: a rename breaks them. */
    @Test
    void keysKeepTheirPublishedSpelling() {
        assertThat(MetadataKeys.FEDERATE_DEFAULT).isEqualTo("cartograph.dev/federate=true");
        assertThat(MetadataKeys.CLUSTER_SELECTOR_ANNOTATION).isEqualTo("cartograph.dev/cluster-selector");
        assertThat(MetadataKeys.PRIORITY_ANNOTATION).isEqualTo("cartograph.dev/priority");
        assertThat(MetadataKeys.FINALIZER).isEqualTo("cartograph.dev/placement");
        assertThat(MetadataKeys.CLUSTER_LABEL).isEqualTo("cartograph.dev/cluster");
        assertThat(MetadataKeys.PHASE_LABEL).isEqualTo("cartograph.dev/phase");
        assertThat(MetadataKeys.REASON_ANNOTATION).isEqualTo("cartograph.dev/reason");
        assertThat(MetadataKeys.EPOCH_ANNOTATION).isEqualTo("cartograph.dev/epoch");
        assertThat(MetadataKeys.STARTED_REPORTED_ANNOTATION).isEqualTo("cartograph.dev/started-reported");
        assertThat(MetadataKeys.PLACEMENT_ID_LABEL).isEqualTo("cartograph.dev/placement-id");
        assertThat(MetadataKeys.DEPENDENCY_LABEL).isEqualTo("cartograph.dev/dependency");
        assertThat(MetadataKeys.USED_BY_PREFIX).isEqualTo("used-by.cartograph.dev/");
    }

    @Test
    void aMemberCopyCarriesOnlyTheKeysThatSayWhereItMayRunAndHowItRanks() {
        assertThat(MemberManifest.FORWARDED)
                .containsExactlyInAnyOrder("cartograph.dev/cluster-selector", "cartograph.dev/priority");
    }
}
