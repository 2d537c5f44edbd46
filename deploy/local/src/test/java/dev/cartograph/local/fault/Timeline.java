package dev.cartograph.local.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * What the suite did and when (wall clock, as the children's logs and the Kafka journal show it, and ms into the run):
 * every submission, deletion, kill and restart, written beside the logs to read a failure against them. Thread-safe.
 */
final class Timeline {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final long t0;
    private final List<String> lines = new ArrayList<>();

    Timeline(long t0) {
        this.t0 = t0;
    }

    synchronized void add(String what) {
        lines.add(TIME.format(Instant.now()) + " +" + (System.nanoTime() - t0) / 1_000_000 + "ms " + what);
    }

    synchronized void write(Path file) throws IOException {
        Files.write(file, lines);
    }
}
