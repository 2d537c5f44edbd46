package dev.cartograph.local.fault;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM of the fault suite: the same {@code java} as the test, a {@link Classpath}, a small
 * heap, its output appended to a log file, started through {@link ParentWatch}. {@link #kill()} is
 * SIGKILL ({@link Process#destroyForcibly()}): no shutdown hook runs, nothing is flushed or closed,
 * sockets are torn down by the kernel (what was written to files stays in the page cache, as after
 * any process crash). Thread-safe.
 */
final class ChildJvm {
    private static final List<String> JVM_FLAGS = List.of(
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xss512k",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djava.net.preferIPv4Stack=true");

    /** The children's logging: {@code fault-suite-logback.xml} from the test resources. */
    private static final String LOGGING = String.valueOf(ChildJvm.class.getResource("/fault-suite-logback.xml"));

    private final String name;
    private final Process process;
    private final Path log;

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * @param name       e.g. {@code broker-2}, also the log file's name
     * @param heap       {@code -Xmx}, e.g. {@code 384m}
     * @param properties system properties ({@code -Dkey=value})
     * @param classpath  the child's classpath
     */
    static ChildJvm start(
            String name,
            String mainClass,
            String heap,
            Map<String, String> properties,
            List<String> args,
            Path logDir,
            Classpath classpath) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.add("-Xmx" + heap);
        command.addAll(JVM_FLAGS);
        command.add("-Dlogback.configurationFile=" + LOGGING);
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classpath.entries()));
        command.add(ParentWatch.class.getName());
        command.add(mainClass);
        command.addAll(args);
        Path log = logDir.resolve(name + ".log");
        try {
            Files.createDirectories(logDir);
            Files.writeString(
                    log,
                    "# " + String.join(" ", command) + "\n",
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start(); // standard input stays a pipe: ParentWatch halts the child when it closes
            return new ChildJvm(name, p, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** SIGSTOP or SIGCONT ({@code STOP}, {@code CONT}): a process paused as a long GC or a frozen VM pauses it. */
    void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL, then waits until the process is gone. */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + pid() + ") still runs 30 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the child has printed a line containing {@code text} yet. */
    boolean logged(String text) {
        try {
            return Files.exists(log) && Files.readString(log).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ")";
    }

    private static String java() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
