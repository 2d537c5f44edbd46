package dev.cartograph.mock.requestlog;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests one server answered: the newest {@code capacity} in memory, and, when given a file, every one as a line
 * of JSON appended to it ({@link LoggedRequest#toJson()}), flushed per line so the file is whole up to the last
 * request even if the process dies. A file that cannot be written is logged once and then left alone: the server goes
 * on serving. Thread-safe: one lock.
 */
public final class RequestLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RequestLog.class);

    private final int capacity;
    private final ArrayDeque<LoggedRequest> newest;
    private final Optional<Path> file;
    private BufferedWriter writer;
    private long total;

    private RequestLog(int capacity, Optional<Path> file, BufferedWriter writer) {
        this.capacity = capacity;
        this.newest = new ArrayDeque<>(Math.min(capacity, 1024));
        this.file = file;
        this.writer = writer;
    }

    /** Keeps the newest {@code capacity} requests in memory (0: none; only {@link #total()} counts). */
    public static RequestLog inMemory(int capacity) {
        checkCapacity(capacity);
        return new RequestLog(capacity, Optional.empty(), null);
    }

    /**
     * Keeps the newest {@code capacity} in memory and appends every request to {@code file} (created with its parent
     * folders when missing, appended to when it exists).
     */
    public static RequestLog toFile(int capacity, Path file) {
        checkCapacity(capacity);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            BufferedWriter writer = Files.newBufferedWriter(
                    file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            return new RequestLog(capacity, Optional.of(file), writer);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot open the request log " + file + " (retry will not help unless the path changes)", e);
        }
    }

    /** Records {@code request}. */
    public synchronized void append(LoggedRequest request) {
        total++;
        if (capacity > 0) {
            if (newest.size() == capacity) {
                newest.removeFirst();
            }
            newest.addLast(request);
        }
        if (writer != null) {
            try {
                writer.write(request.toJson());
                writer.newLine();
                writer.flush();
            } catch (IOException e) {
                LOG.warn("stopped writing the request log {}: {}", file.orElseThrow(), e.toString());
                closeWriter();
            }
        }
    }

    /** The requests kept in memory, oldest first. */
    public synchronized List<LoggedRequest> entries() {
        return List.copyOf(newest);
    }

    /** How many requests were recorded since the server started (kept or not). */
    public synchronized long total() {
        return total;
    }

    /** The file requests are appended to, if any. */
    public Optional<Path> file() {
        return file;
    }

    /** Closes the file, if any; the in-memory log stays readable. Idempotent. */
    @Override
    public synchronized void close() {
        closeWriter();
    }

    private void closeWriter() {
        if (writer == null) {
            return;
        }
        try {
            writer.close();
        } catch (IOException e) {
            LOG.warn("could not close the request log {}: {}", file.orElseThrow(), e.toString());
        } finally {
            writer = null;
        }
    }

    private static void checkCapacity(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a request log keeps 0 or more requests, was " + capacity);
        }
    }
}
