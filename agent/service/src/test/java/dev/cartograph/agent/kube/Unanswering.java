package dev.cartograph.agent.kube;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fabric8 CRUD mock with an API server's failure put in front of chosen paths while the test wants it: a path
 * {@link #fail fails} with the given code (429 with {@code Retry-After}, or a 5xx) until {@link #answer} is called;
 * every other request is the CRUD mock's. Counts the failures it gave. Thread-safe.
 */
public final class Unanswering extends Dispatcher {
    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
    private final Map<String, Integer> failing = new ConcurrentHashMap<>();
    private final AtomicInteger failures = new AtomicInteger();

    /** Requests whose path (without the query) is {@code path} are answered {@code code} from now on. */
    public void fail(String path, int code) {
        failing.put(path, code);
    }

    /** Requests to {@code path} are the CRUD mock's again. */
    public void answer(String path) {
        failing.remove(path);
    }

    public int failures() {
        return failures.get();
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath().replaceFirst("\\?.*", "");
        Integer code = failing.get(path);
        if (code == null) {
            return crud.dispatch(request);
        }
        failures.incrementAndGet();
        String reason = code == 429 ? "TooManyRequests" : code == 503 ? "ServiceUnavailable" : "InternalError";
        MockResponse r = new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"injected by the test\",\"reason\":\"" + reason + "\",\"code\":" + code + "}");
        return code == 429 ? r.setHeader("Retry-After", "1") : r;
    }
}
