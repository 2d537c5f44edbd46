package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs the real kubectl binary with a kubeconfig and cache folder in {@code dir}; each run is bounded to 30 s. */
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

    record Result(int code, String out, String err) {
    }

    /** Runs kubectl and asserts it exits 0; returns its standard output. */
    String ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        assertThat(r.code()).as("kubectl %s failed: %s", String.join(" ", args), r.err()).isZero();
        return r.out();
    }

    Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--kubeconfig", kubeconfig().toString(),
                "--cache-dir", dir.resolve("cache").toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish in 30 s");
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Writes {@code content} to {@code dir/name}; returns the path as text for {@code -f}. */
    String file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content).toString();
    }
}
