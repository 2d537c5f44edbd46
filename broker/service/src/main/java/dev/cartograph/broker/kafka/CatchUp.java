package dev.cartograph.broker.kafka;

import java.util.OptionalLong;

/**
 * When a partition counts as read up to a target offset (the end it had when catching up began, or when a mark was
 * asked for): at that offset, or at the end of its log now when the log is shorter than the target — the topic was
 * deleted and made again, or its log truncated (an unclean leader election), so what lay up to the target is gone and
 * waiting for it would wait for ever. Logs only grow otherwise, so a partition read to its end is past the target.
 */
final class CatchUp {
    private CatchUp() {}

    /**
     * @param position where the consumer reads next
     * @param target   the end offset to reach
     * @param lag      how far the consumer is behind the log's end now ({@code Consumer.currentLag}), empty if unknown
     */
    static boolean reached(long position, long target, OptionalLong lag) {
        return position >= target || (lag.isPresent() && lag.getAsLong() == 0);
    }
}
