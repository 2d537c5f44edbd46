package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A cluster that answers 403 to everything, and one that does not answer at all. */
@Timeout(60)
class ForbiddenClusterTest {
    @TempDir
    Path dir;

    HttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = """
                    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,
                     "message":"forbidden: User \\"alice\\" cannot list resource"}""".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(403, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Path kubeconfig(String url) throws Exception {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "%s"}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: c, context: {cluster: c, user: u, namespace: team-a}}]
                current-context: c
                """.formatted(url));
        return file;
    }

    @Test
    void forbiddenListingIsAClusterErrorWithTheReason() throws Exception {
        Path kc = kubeconfig("http://127.0.0.1:" + server.getAddress().getPort());
        CartoTest.Run run = CartoTest.carto("get", "jobsets", "--kubeconfig", kc.toString(), "-o", "json");
        assertThat(run.exit()).isEqualTo(5);
        assertThat(run.out()).contains("\"error\" : \"cluster\"").contains("forbidden (403)");
    }

    @Test
    void definitionsFallBackToTheCatalogWithOneWarning() throws Exception {
        Path kc = kubeconfig("http://127.0.0.1:" + server.getAddress().getPort());
        CartoTest.Run run = CartoTest.carto("definitions", "--kubeconfig", kc.toString());
        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("jobset-x-k8s-io-jobset-v1alpha2");
        assertThat(run.err().lines().filter(l -> l.contains("using the built-in catalog")))
                .hasSize(1);
    }

    @Test
    void unreachableApiServerIsReportedNotThrown() throws Exception {
        server.stop(0);
        Path kc = kubeconfig("http://127.0.0.1:1");
        CartoTest.Run run = CartoTest.carto("get", "jobsets", "--kubeconfig", kc.toString(), "--request-timeout", "2");
        assertThat(run.exit()).isEqualTo(5);
        assertThat(run.err()).startsWith("error: cannot reach the API server");
    }
}
