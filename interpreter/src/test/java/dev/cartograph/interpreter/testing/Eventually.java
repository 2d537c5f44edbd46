package dev.cartograph.interpreter.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls until a condition holds or time runs out (then fails with the last reason). */
public final class Eventually {
    private Eventually() {}

    public static void until(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        until(timeout, condition, () -> "condition not met");
    }

    /** As {@link #until(Duration, BooleanSupplier)}; on time-out the message says what was awaited and what was seen. */
    public static void until(Duration timeout, BooleanSupplier condition, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + timeout + ": " + what.get());
            }
            Thread.sleep(100);
        }
    }

    public static void asserted(Duration timeout, Runnable assertion) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(300);
            }
        }
    }
}
