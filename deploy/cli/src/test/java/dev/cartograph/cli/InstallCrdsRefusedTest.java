package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cartograph.interpreter.Documents;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hub that lets the caller read CRDs and discovery but refuses to create them, as kube-apiserver does for a user
 * without {@code create} on customresourcedefinitions (403 with its Status message), rejects one as invalid (422),
 * or accepts them and then does not establish them (its CRD controller has not got to them, or their names clash:
 * {@code NamesAccepted=False}). Created CRDs are kept and read back as sent, with the status this hub gives them.
 */
@Timeout(60)
class InstallCrdsRefusedTest {
    @TempDir
    Path dir;

    HttpServer server;
    final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    volatile int refusal = 403;
    /** Which CRD a 422 refuses; null: every create. */
    volatile String invalid;
    /** The status the hub reports on every created CRD; null: none (not looked at yet). */
    volatile String status = ESTABLISHED;

    final Map<String, String> created = new ConcurrentHashMap<>();

    static final String ESTABLISHED = """
            {"conditions":[{"type":"NamesAccepted","status":"True","reason":"NoConflicts"},
             {"type":"Established","status":"True","reason":"InitialNamesAccepted"}]}""";

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
        byte[] sent = exchange.getRequestBody().readAllBytes();
        String body;
        int code;
        if (method.equals("GET") && path.equals("/apis")) {
            code = 200;
            body = "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}";
        } else if (method.equals("GET") && path.equals("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")) {
            code = 200;
            body = "{\"kind\":\"CustomResourceDefinitionList\",\"apiVersion\":\"apiextensions.k8s.io/v1\","
                    + "\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}";
        } else if (method.equals("GET") && path.startsWith(CRDS + "/") && created.containsKey(name(path))) {
            code = 200;
            body = created.get(name(path));
            if (status != null) {
                body = body.substring(0, body.lastIndexOf('}')) + ",\"status\":" + status + "}";
            }
        } else if (method.equals("POST") && refusal == 0) {
            String crd = new String(sent, StandardCharsets.UTF_8);
            String name =
                    Documents.json().readTree(crd).path("metadata").path("name").asText();
            if (name.equals(invalid)) {
                code = 422;
                body = INVALID;
            } else {
                created.put(name, crd);
                code = 201;
                body = crd;
            }
        } else if (method.equals("POST") && refusal == 403) {
            code = 403;
            body = """
                    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,
                     "message":"customresourcedefinitions.apiextensions.k8s.io is forbidden: User \\"alice\\" cannot create resource \\"customresourcedefinitions\\" in API group \\"apiextensions.k8s.io\\" at the cluster scope"}""";
        } else if (method.equals("POST")) {
            code = 422;
            body = INVALID;
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

    static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    static final String INVALID = """
            {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Invalid","code":422,
             "message":"CustomResourceDefinition.apiextensions.k8s.io \\"clusters.cartograph.dev\\" is invalid: spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value"}""";

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
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
        assertThat(run.err()).contains("error: 24 more CRDs not tried");
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
        // a 422 is about one CRD: every other is still tried (and here refused too), each named
        assertThat(requests.stream().filter(r -> r.startsWith("POST"))).hasSize(25);
        assertThat(run.err().lines()).hasSize(25).allSatisfy(l -> assertThat(l).contains("HTTP 422"));
    }

    /** 3 Cartograph CRDs + 22 catalog CRDs (counted in InstallCrdsTest); one refused, the other 24 installed. */
    @Test
    void oneInvalidCrdFailsAloneAndTheRestAreInstalled() throws Exception {
        refusal = 0;
        invalid = "clusters.cartograph.dev";
        CartoTest.Run run =
                CartoTest.carto("install", "crds", "--kubeconfig", kubeconfig().toString());

        assertThat(run.exit()).isEqualTo(5);
        assertThat(run.err().lines())
                .singleElement()
                .satisfies(l -> assertThat(l)
                        .startsWith("error: cannot create CRD clusters.cartograph.dev: HTTP 422: ")
                        .contains("Invalid value"));
        assertThat(requests.stream().filter(r -> r.startsWith("POST"))).hasSize(25);
        assertThat(created)
                .hasSize(24)
                .containsKey("queues.cartograph.dev")
                .containsKey("kartas.run.ai")
                .containsKey("pytorchjobs.kubeflow.org");
        assertThat(run.out().lines())
                .hasSize(24)
                .allSatisfy(l -> assertThat(l).endsWith(" created"))
                .contains("customresourcedefinition.apiextensions.k8s.io/kartas.run.ai created");
    }

    @Test
    void crdsTheHubDoesNotEstablishInTimeAreNamedAndExitWithTheClusterCode() throws Exception {
        refusal = 0;
        status = null;
        CartoTest.Run run =
                CartoTest.carto("install", "crds", "--kubeconfig", kubeconfig().toString(), "--wait", "1");

        assertThat(run.exit()).isEqualTo(5);
        assertThat(run.out().lines()).hasSize(25);
        assertThat(run.err().lines())
                .hasSize(25)
                .contains("error: CRD clusters.cartograph.dev is not established after 1 s");
    }

    @Test
    void crdsWhoseNamesTheHubRefusesSayWhy() throws Exception {
        refusal = 0;
        status = """
                {"conditions":[{"type":"NamesAccepted","status":"False","reason":"KindConflict",
                 "message":"\\"Cluster\\" is already in use"},
                 {"type":"Established","status":"False","reason":"NotAccepted","message":"not all names are accepted"}]}""";
        CartoTest.Run run =
                CartoTest.carto("install", "crds", "--kubeconfig", kubeconfig().toString());

        assertThat(run.exit()).isEqualTo(5);
        assertThat(run.err())
                .contains("error: CRD clusters.cartograph.dev is not established: names not accepted: KindConflict:"
                        + " \"Cluster\" is already in use");
    }

    @Test
    void withoutWaitingTheInstalledCrdsAreNotRead() throws Exception {
        refusal = 0;
        status = null;
        CartoTest.Run run =
                CartoTest.carto("install", "crds", "--kubeconfig", kubeconfig().toString(), "--wait", "0");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(requests).noneMatch(r -> r.startsWith("GET " + CRDS + "/"));
    }

    @Test
    void establishedCrdsEndTheWaitAtOnce() throws Exception {
        refusal = 0;
        CartoTest.Run run =
                CartoTest.carto("install", "crds", "--kubeconfig", kubeconfig().toString(), "--wait", "600");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(requests.stream().filter(r -> r.startsWith("GET " + CRDS + "/")))
                .hasSize(25);
    }
}
