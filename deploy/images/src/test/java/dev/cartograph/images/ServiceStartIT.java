package dev.cartograph.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's image runs the broker itself, not only its {@code --version}: unpacked and started under
 * {@code chroot} as the image's user on a read-only root with a tmpfs at /tmp, with a Kafka and a hub that do not
 * answer (it keeps retrying both, by design), it completes its start and answers {@code /health} on its port.
 * This proves the jlink runtime and the base carry what Micronaut, Netty, Kafka's client and fabric8 load at start.
 * (The agent refuses to start without its member API server, so its image is tested by {@code --version} and
 * jdeps in {@link ImageTarballIT}.) Skips like {@link ImageTarballIT}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServiceStartIT {

    private static final String STARTED = "Startup completed";

    @TempDir
    Path work;

    @Test
    void brokerStartsOnAReadOnlyRootAndAnswersHealth() throws Exception {
        String property = System.getProperty("image.broker.tar", "");
        assumeTrue(
                !property.isEmpty() && Files.isRegularFile(Path.of(property)),
                "no broker image tarball at '" + property
                        + "': build it with mvn -B -ntp -Pimages -DskipTests package");
        Chroot.requirePermitted();
        ImageTarball image = ImageTarball.open(Path.of(property), Files.createDirectories(work.resolve("tarball")));
        Path root = work.resolve("root");
        image.unpackInto(root);
        int port = freePort();
        List<String> env = new ArrayList<>(image.env());
        env.add("CARTOGRAPH_BROKER_PORT=" + port);
        env.add("CARTOGRAPH_BROKER_BOOTSTRAP_SERVERS=127.0.0.1:9"); // discard: nothing answers

        Process broker = Processes.builder(Chroot.command(root, image.user(), true, image.entrypoint()), env)
                .start();
        broker.getOutputStream().close();
        try {
            String output = readUntilStarted(broker);
            HttpResponse<String> health = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());

            assertThat(output).contains(STARTED).doesNotContain("NoClassDefFoundError", "ClassNotFoundException");
            assertThat(health.body()).as("/health of the broker in the image").contains("\"status\"");
        } finally {
            Processes.stop(broker);
        }
    }

    /** The output up to the line saying Micronaut has started; fails with all of it when the process ends first. */
    private static String readUntilStarted(Process process) throws Exception {
        CompletableFuture<String> started = CompletableFuture.supplyAsync(() -> {
            StringBuilder output = new StringBuilder();
            // not closed here: after the start line, drain() reads on until the process ends
            BufferedReader lines =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            try {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.append(line).append('\n');
                    if (line.contains(STARTED)) {
                        drain(lines);
                        return output.toString();
                    }
                }
            } catch (IOException e) {
                output.append(e);
            }
            throw new IllegalStateException("the broker ended before it started:\n" + output);
        });
        return started.get(3, TimeUnit.MINUTES);
    }

    /** Keeps reading so the broker never blocks on a full pipe. */
    private static void drain(BufferedReader lines) {
        Thread drain = new Thread(() -> {
            try {
                while (lines.readLine() != null) {
                    // discarded
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        drain.setDaemon(true);
        drain.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
