package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a broker that started catching up while its placements topic was deleted and made again waited for the old
 * end offset for ever, so it never acted when it came to lead (the CI run of seed 35483190789830: the new leader "leading
 * (term 2)", never "caught up", 31 gangs lost).
 */
class CatchUpTest {
    @Test
    void aPartitionIsReadUpToItsTargetOnceThePositionIsThere() {
        assertThat(CatchUp.reached(37, 37, OptionalLong.empty())).isTrue();
        assertThat(CatchUp.reached(36, 37, OptionalLong.of(1))).isFalse();
        assertThat(CatchUp.reached(36, 37, OptionalLong.empty()))
                .as("nothing fetched yet")
                .isFalse();
    }

    @Test
    void aLogShorterNowThanTheTargetIsReadOnceItsEndIsReached() {
        // the target was 37 in the old topic; the new one holds 4 records, all read
        assertThat(CatchUp.reached(4, 37, OptionalLong.of(0))).isTrue();
        assertThat(CatchUp.reached(2, 37, OptionalLong.of(2))).isFalse();
    }
}
