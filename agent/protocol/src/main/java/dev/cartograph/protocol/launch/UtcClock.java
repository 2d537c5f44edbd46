package dev.cartograph.protocol.launch;

import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock in UTC only, as the services keep time: the zone is never asked of it but by {@code Clock}'s contract. */
abstract class UtcClock extends Clock {
    @Override
    public final ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public final Clock withZone(ZoneId zone) {
        if (zone.equals(ZoneOffset.UTC)) {
            return this;
        }
        throw new UnsupportedOperationException(getClass().getSimpleName() + " is UTC only");
    }
}
