package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hub that lets the caller read CRDs and discovery but refuses to create them, as kube-apiserver does for a user
 * without {@code create} on customresourcedefinitions (403 with its Status message), or rejects one as invalid (422).
 */
@Timeout(60)
class InstallCrdsRefusedTest {
    @TempDir
    Path dir;

    HttpServer server;
    final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    volatile int refusal = 403;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        requests.add(method + " " + path);
        String body;
        int code;
        if (method.equals("GET") && path.equals("/apis")) {
            code = 200;
            body = "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}";
        } else if (method.equals("GET") && path.equals("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")) {
            code = 200;
            body = "{\"kind\":\"CustomResourceDefinitionList\",\"apiVersion\":\"apiextensions.k8s.io/v1\","
                    + "\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}";
        } else if (method.equals("POST") && refusal == 403) {
            code = 403;
            body = """
                    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,
                     "message":"customresourcedefinitions.apiextensions.k8s.io is forbidden: User \\"alice\\" cannot create resource \\"customresourcedefinitions\\" in API group \\"apiextensions.k8s.io\\" at the cluster scope"}""";
        } else if (method.equals("POST")) {
            code = 422;
            body = """
                    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Invalid","code":422,
                     "message":"CustomResourceDefinition.apiextensions.k8s.io \\"clusters.cartograph.dev\\" is invalid: spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value"}""";
        } else {
            code = 404;
            body =
                    "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private Path kubeconfig() throws IOException {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "http://127.0.0.1:%d"}}]
                users: [{name: alice, user: {token: t}}]
                contexts: [{name: c, context: {cluster: c, user: alice}}]
                current-context: c
                """.formatted(server.getAddress().getPort()));
        return file;
    }

    @Test
    void forbiddenCreateNamesTheCrdAndExitsWithTheClusterCode() throws Exception {
        CartoTest.Run run =
                CartoTest.carto("install", "crds", "--kubeconfig", kubeconfig().toString());

        assertThat(run.exit()).isEqualTo(5);
        assertThat(run.err())
                .startsWith("error: cannot create CRD clusters.cartograph.dev: forbidden (403): ")
                .contains("User \"alice\" cannot create resource \"customresourcedefinitions\"");
        assertThat(run.out()).isEmpty();
        assertThat(requests.stream().filter(r -> r.startsWith("POST"))).hasSize(1); // stops at the first refusal
    }

    @Test
    void invalidCrdNamesTheCrdAndTheServersReason() throws Exception {
        refusal = 422;
        CartoTest.Run run =
                CartoTest.carto("install", "crds", "--kubeconfig", kubeconfig().toString());

        assertThat(run.exit()).isEqualTo(5);
        assertThat(run.err())
                .startsWith("error: cannot create CRD clusters.cartograph.dev: HTTP 422: ")
                .contains("additionalPrinterColumns[0].jsonPath: Invalid value");
    }
}
