package dev.cartograph.images;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        if (!env.isEmpty()) {
            // the image's environment only, as a container runtime sets it (host programs go by absolute path)
            environment.clear();
            for (String variable : env) {
                int equals = variable.indexOf('=');
                environment.put(variable.substring(0, equals), variable.substring(equals + 1));
            }
        }
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(command + " did not end within 2 minutes");
        }
        return new Result(command, process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
