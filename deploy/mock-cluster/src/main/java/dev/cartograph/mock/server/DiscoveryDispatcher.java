package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.mock.admission.Admission;
import dev.cartograph.mock.admission.AdmissionDenial;
import dev.cartograph.mock.discovery.BuiltInKinds;
import dev.cartograph.mock.discovery.Discovery;
import dev.cartograph.mock.discovery.OpenApiV3;
import dev.cartograph.mock.watch.ChangeLog;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serves what the CRUD dispatcher does not: the legacy discovery documents kubectl needs
 * ({@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/GROUP/VERSION}), {@code /version}
 * and health endpoints; everything else goes to the wrapped {@link KubernetesCrudDispatcher}.
 * Discovery is rebuilt per request from the built-in table and the CRDs currently stored, so CRDs
 * created later appear at once, and marks them established as kube-apiserver does ({@link CrdWrites}). After each CRD write it tells the CRUD dispatcher about every
 * served version, so {@code .../status} works on all of them (the CRUD dispatcher alone only knows
 * one version per CRD). It also strips the query from PUT/PATCH paths (so {@code .../status?fieldManager=x}
 * is still a status write), applies strategic merge patches itself (see {@link StrategicMergePatch}),
 * serves {@code .../scale} (see {@link ScaleSubresource}), answers pod log requests with an empty log,
 * serves server-side Tables and field-selected lists (see {@link ResourceReads}), takes server-side apply
 * (see {@link ServerSideApply}) and reads or refuses protobuf bodies (see {@link ProtobufBodies}). Creates and
 * updates its {@link Admission} refuses are answered 403 before anything else (see {@link AdmissionGate}).
 * Watches over HTTP never get here ({@link HttpWatches}). Thread-safe: the CRUD dispatcher locks its store.
 */
final class DiscoveryDispatcher extends Dispatcher {
    static final String CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final Pattern GROUP_VERSION = Pattern.compile("/apis/([^/]+)/([^/]+)/?");
    private static final Pattern OPENAPI_GROUP_VERSION = Pattern.compile("/openapi/v3/(?:api|apis/([^/]+))/([^/]+)/?");
    private static final Pattern POD_LOG = Pattern.compile("/api/v1/namespaces/[^/]+/pods/[^/]+/log/?");
    private static final String STRATEGIC_MERGE = "application/strategic-merge-patch+json";
    private static final String JSON_MERGE = "application/merge-patch+json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final KubernetesCrudDispatcher delegate;
    private final KubernetesSerialization serialization = new KubernetesSerialization();
    private final Supplier<String> serverAddress;
    private final KubeVersion version;
    private final ScaleSubresource scale;
    private final ServerSideApply serverSideApply;
    private final ServedTypes servedTypes;
    private final ResourceReads reads;
    private final AdmissionGate admission;
    private final Clock clock;

    /**
     * @param clock     the time Table ages are computed against
     * @param admission what creates and updates are refused ({@link Admission#NONE}: nothing)
     * @param changes   the store's history, which stale lists are rewound with
     */
    DiscoveryDispatcher(
            KubernetesCrudDispatcher delegate,
            Supplier<String> serverAddress,
            KubeVersion version,
            Clock clock,
            Admission admission,
            ChangeLog changes) {
        this.delegate = delegate;
        this.serverAddress = serverAddress;
        this.version = version;
        this.scale = new ScaleSubresource(delegate, this::discovery);
        this.serverSideApply = new ServerSideApply(delegate);
        this.servedTypes = new ServedTypes(this::storedCrds);
        this.reads = new ResourceReads(delegate, servedTypes, clock, changes);
        this.clock = clock;
        this.admission = new AdmissionGate(admission, this::discovery, delegate);
    }

    @Override
    public MockResponse dispatch(RecordedRequest received) {
        String path = withoutQuery(received.getPath());
        String method = received.getMethod().toUpperCase(Locale.ROOT);
        if (("POST".equals(method) || "PUT".equals(method)) && ProtobufBodies.isProtobuf(received)) {
            ProtobufBodies.Converted converted = ProtobufBodies.toJson(received);
            if (converted instanceof ProtobufBodies.Refused refused) {
                return refused.response();
            }
            return dispatch(((ProtobufBodies.Json) converted).request(), method, path);
        }
        return dispatch(received, method, path);
    }

    private MockResponse dispatch(RecordedRequest request, String method, String path) {
        if ("GET".equals(method)) {
            Optional<MockResponse> served = serve(path).or(() -> reads.handle(request, path));
            if (served.isPresent()) {
                return served.get();
            }
        }
        Optional<MockResponse> denied = admission.review(method, path);
        if (denied.isPresent()) {
            return denied.get();
        }
        MockResponse response = forward(request, method, path);
        if (response == null) {
            return Responses.status(
                    405, "MethodNotAllowed", "the mock API server does not serve " + method + " requests");
        }
        if (path.startsWith(CRD_PATH) && !"GET".equals(method) && response.code() < 300) {
            CrdWrites.followed(delegate, storedCrds(), request, serialization, clock);
        }
        if (response.header("Content-Type") == null && response.getWebSocketListener() == null) {
            response.setHeader("Content-Type", Responses.JSON);
        }
        return response;
    }

    private MockResponse forward(RecordedRequest request, String method, String path) {
        Optional<MockResponse> special =
                scale.handle(request, method, path).or(() -> serverSideApply.handle(request, method, path));
        if (special.isPresent()) {
            return special.get();
        }
        boolean write = "PUT".equals(method) || "PATCH".equals(method);
        String type = String.valueOf(request.getHeader("Content-Type"));
        if ("PATCH".equals(method) && type.startsWith(STRATEGIC_MERGE)) {
            return patched(request, path, StrategicMergePatch::apply, "strategic merge patch");
        }
        if ("PATCH".equals(method) && type.startsWith(JSON_MERGE)) { // the CRUD mock appends lists; RFC 7386 replaces
            return patched(request, path, JsonMergePatch::apply, "JSON merge patch");
        }
        if (write && !path.equals(request.getPath())) {
            // the CRUD dispatcher recognises .../status only without a query (kubectl adds ?fieldManager=...)
            return delegate.dispatch(new RecordedRequest(
                    request.getHttpVersion(), request.method(), path, request.getHeaders(), request.getBody()));
        }
        return delegate.dispatch(request);
    }

    /**
     * A patch the CRUD dispatcher does not do as a real API server does (a strategic merge patch it answers with 415,
     * a JSON merge patch whose lists it appends to): applied here and stored with a PUT.
     */
    private MockResponse patched(
            RecordedRequest request, String path, java.util.function.BinaryOperator<JsonNode> patch, String what) {
        MockResponse current = delegate.handleGet(path);
        if (current.code() != 200) {
            return current;
        }
        try {
            JsonNode merged = patch.apply(
                    MAPPER.readTree(current.getBody().getBytes()),
                    MAPPER.readTree(request.getBody().getBytes()));
            return delegate.handleUpdate(new RecordedRequest(
                    request.getHttpVersion(),
                    HttpMethod.PUT,
                    path,
                    request.getHeaders(),
                    new Buffer(MAPPER.writeValueAsBytes(merged))));
        } catch (IOException e) {
            return Responses.status(400, "BadRequest", "the " + what + " is not valid JSON: " + e.getMessage());
        }
    }

    /** Every write admission refused so far, oldest first. */
    List<AdmissionDenial> admissionDenials() {
        return admission.denials();
    }

    /** The resource types served now (built-ins plus the stored CRDs), as reads and watches need them. */
    ServedTypes servedTypes() {
        return servedTypes;
    }

    /** The discovery documents as they are now (built-ins plus the stored CRDs). */
    Discovery discovery() {
        return Discovery.of(BuiltInKinds.all(), storedCrds());
    }

    private Optional<MockResponse> serve(String path) {
        switch (path) {
            case "/version":
                return Optional.of(json(200, version.asMap()));
            case "/api":
            case "/api/":
                return Optional.of(json(200, discovery().coreVersions(serverAddress.get())));
            case "/apis":
            case "/apis/":
                return Optional.of(json(200, discovery().groups()));
            case "/api/v1":
            case "/api/v1/":
                return Optional.of(resources("", "v1"));
            case "/healthz":
            case "/livez":
            case "/readyz":
                return Optional.of(new MockResponse()
                        .setResponseCode(200)
                        .setHeader("Content-Type", "text/plain")
                        .setBody("ok"));
            case "/openapi/v2":
                return Optional.of(notFound("the mock API server serves no OpenAPI v2; /openapi/v3 is a skeleton"));
            case "/openapi/v3":
            case "/openapi/v3/":
                return Optional.of(json(200, new OpenApiV3(discovery()).root()));
            default:
                if (POD_LOG.matcher(path).matches()) {
                    // simulated pods have no containers to log from; an empty log beats the CRUD store's list
                    return Optional.of(new MockResponse()
                            .setResponseCode(200)
                            .setHeader("Content-Type", "text/plain")
                            .setBody(""));
                }
                return serveGroupVersion(path);
        }
    }

    private Optional<MockResponse> serveGroupVersion(String path) {
        Matcher m = GROUP_VERSION.matcher(path);
        if (m.matches()) {
            return Optional.of(resources(m.group(1), m.group(2)));
        }
        Matcher openApi = OPENAPI_GROUP_VERSION.matcher(path);
        if (openApi.matches()) {
            String group = openApi.group(1) == null ? "" : openApi.group(1);
            return Optional.of(new OpenApiV3(discovery())
                    .groupVersion(group, openApi.group(2))
                    .map(doc -> json(200, doc))
                    .orElseGet(() -> notFound("no OpenAPI document for " + path)));
        }
        return Optional.empty();
    }

    private MockResponse resources(String group, String version) {
        return discovery()
                .resources(group, version)
                .map(list -> json(200, list))
                .orElseGet(
                        () -> notFound("no resources are served at " + (group.isEmpty() ? "" : group + "/") + version));
    }

    private List<CustomResourceDefinition> storedCrds() {
        MockResponse list = delegate.handleGet(CRD_PATH);
        if (list.code() != 200 || list.getBody() == null) {
            return List.of();
        }
        CustomResourceDefinitionList crds =
                serialization.unmarshal(list.getBody().readUtf8(), CustomResourceDefinitionList.class);
        return crds.getItems() == null ? List.of() : crds.getItems();
    }

    private static MockResponse json(int code, Object body) {
        return Responses.json(code, body);
    }

    private static MockResponse notFound(String message) {
        return Responses.status(404, "NotFound", message);
    }

    private static String withoutQuery(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    /** What {@code /version} reports. */
    record KubeVersion(String major, String minor, String gitVersion) {
        static final KubeVersion DEFAULT = new KubeVersion("1", "32", "v1.32.0-cartograph-mock");

        Map<String, Object> asMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("major", major);
            map.put("minor", minor);
            map.put("gitVersion", gitVersion);
            map.put("gitCommit", "0000000000000000000000000000000000000000");
            map.put("gitTreeState", "clean");
            map.put("buildDate", "2026-01-01T00:00:00Z");
            map.put("goVersion", "go1.23.0");
            map.put("compiler", "gc");
            map.put("platform", "linux/amd64");
            return map;
        }
    }
}
