package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Runs the real kubectl binary with a kubeconfig and cache folder in {@code dir}; each {@link #run} is
 * bounded to 30 s, a {@link #start}ed one runs until closed.
 */
final class Kubectl {
    private final Path binary;
    private final Path dir;

    private Kubectl(Path binary, Path dir) {
        this.binary = binary;
        this.dir = dir;
    }

    /** kubectl from PATH, using {@code dir/kubeconfig}; empty when kubectl is not installed. */
    static Optional<Kubectl> onPath(Path dir) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : path.split(File.pathSeparator)) {
            Path candidate = Path.of(entry).resolve("kubectl");
            if (Files.isExecutable(candidate)) {
                return Optional.of(new Kubectl(candidate, dir));
            }
        }
        return Optional.empty();
    }

    Path kubeconfig() {
        return dir.resolve("kubeconfig");
    }

    record Result(int code, String out, String err) {}

    /** Runs kubectl and asserts it exits 0; returns its standard output. */
    String ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        assertThat(r.code())
                .as("kubectl %s failed: %s", String.join(" ", args), r.err())
                .isZero();
        return r.out();
    }

    Result run(String... args) throws IOException, InterruptedException {
        List<String> command = command(args);
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish in 30 s");
        }
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * Starts kubectl and returns at once, for commands that keep running ({@code get -w}); its output is
     * read while it runs. Close the result to stop it.
     */
    Running start(String... args) throws IOException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command(args))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new Running(String.join(" ", args), p, out, err);
    }

    /** A kubectl process still running, and what it has printed so far. */
    record Running(String args, Process process, Path stdoutFile, Path stderrFile) implements AutoCloseable {
        /** What it has printed on standard output so far. */
        String out() throws IOException {
            return Files.readString(stdoutFile, StandardCharsets.UTF_8);
        }

        /** Waits until the standard output matches {@code regex} (multiline, dot-all); fails after {@code timeout}. */
        String awaitOutput(String regex, Duration timeout) throws IOException, InterruptedException {
            Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE | Pattern.DOTALL);
            Instant deadline = Instant.now().plus(timeout);
            while (Instant.now().isBefore(deadline)) {
                String text = out();
                if (pattern.matcher(text).find()) {
                    return text;
                }
                if (!process.isAlive()) {
                    break;
                }
                Thread.sleep(50);
            }
            throw new AssertionError("kubectl " + args + " printed no match for /" + regex + "/ within " + timeout
                    + (process.isAlive() ? "" : " (it exited " + process.exitValue() + ")") + "; stdout:\n" + out()
                    + "\nstderr:\n" + Files.readString(stderrFile, StandardCharsets.UTF_8));
        }

        /** Waits for the process to end by itself; fails after {@code timeout}. */
        int awaitExit(Duration timeout) throws InterruptedException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("kubectl " + args + " still runs after " + timeout);
            }
            return process.exitValue();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--kubeconfig",
                kubeconfig().toString(),
                "--cache-dir",
                dir.resolve("cache").toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** Writes {@code content} to {@code dir/name}; returns the path as text for {@code -f}. */
    String file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content).toString();
    }
}
