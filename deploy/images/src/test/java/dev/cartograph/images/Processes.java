package dev.cartograph.images;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs a host command with exactly the given environment, collecting its output (stdout and stderr merged). */
final class Processes {
    private Processes() {}

    /** What a finished command printed and how it exited. */
    record Result(List<String> command, int exit, String output) {
        Result requireSuccess(String what) {
            if (exit != 0) {
                throw new IllegalStateException(what + ": " + command + " exited " + exit + ":\n" + output);
            }
            return this;
        }
    }

    static Result run(List<String> command, List<String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = builder(command, env);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            stop(process);
            throw new IllegalStateException(command + " did not end within 2 minutes");
        }
        return new Result(command, process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /**
     * A builder for {@code command}, merging stderr into stdout; with {@code env} (NAME=value), exactly that
     * environment, as a container runtime sets the image's (host programs go by absolute path).
     */
    static ProcessBuilder builder(List<String> command, List<String> env) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (!env.isEmpty()) {
            Map<String, String> environment = builder.environment();
            environment.clear();
            for (String variable : env) {
                int equals = variable.indexOf('=');
                environment.put(variable.substring(0, equals), variable.substring(equals + 1));
            }
        }
        return builder;
    }

    /**
     * Kills {@code process} and what it started: the JVM under unshare and chroot, which unshare's
     * {@code --kill-child} cannot reach once chroot has changed the user (that clears the parent-death signal).
     * Killed, not asked to stop: a broker that cannot reach Kafka takes half a minute over a graceful stop.
     */
    static void stop(Process process) throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        for (ProcessHandle handle : descendants) {
            try {
                handle.onExit().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("process " + handle.pid() + " outlived SIGKILL by 30 s", e);
            }
        }
    }
}
