package dev.cartograph.local.fault;

import dev.cartograph.protocol.launch.ProcessClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;

/**
 * The wall clock of each machine of the fleet — a broker slot, a member's agent — as an offset from the test's own
 * clock, in a file per machine that the processes on it read ({@link ProcessClock}). A process started again in the
 * same slot runs on the same machine, so on the same clock. Thread-safe.
 */
final class MachineClocks {
    private final Path dir;

    MachineClocks(Path dir) {
        try {
            this.dir = Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The system property that puts a process on {@code machine}'s clock (in step with the test's until stepped). */
    Map<String, String> property(String machine) {
        Path file = file(machine);
        if (!Files.exists(file)) {
            step(machine, Duration.ZERO);
        }
        return Map.of(ProcessClock.OFFSET_FILE, file.toString());
    }

    /** Sets {@code machine}'s clock {@code offset} from the test's (as an NTP step does: at once). */
    synchronized void step(String machine, Duration offset) {
        Path file = file(machine);
        try {
            Path next = Files.writeString(dir.resolve(machine + ".next"), Long.toString(offset.toMillis()));
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path file(String machine) {
        return dir.resolve(machine + ".offset-ms");
    }
}
