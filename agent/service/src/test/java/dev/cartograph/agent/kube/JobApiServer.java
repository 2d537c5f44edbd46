package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fabric8 CRUD mock with {@code batch/v1} Jobs treated as a real API server treats them (the Job
 * strategy's {@code generateSelector} and {@code validateGeneratedSelector}, and the immutability of
 * a Job's selector and pod template):
 * <ul>
 * <li>create, unless {@code spec.manualSelector}: 422 when the selector or the template's labels carry
 *     a {@code controller-uid} this server did not generate; else the selector and the four template
 *     labels are generated from the new Job's uid;</li>
 * <li>update (PUT, or a JSON merge patch as merged): 422 when it changes {@code spec.selector} or
 *     {@code spec.template}.</li>
 * </ul>
 * Everything else is the CRUD mock's. Thread-safe as the CRUD dispatcher is.
 */
final class JobApiServer extends Dispatcher {
    private static final Pattern JOBS =
            Pattern.compile("/apis/batch/v1/namespaces/([^/]+)/jobs(?:/([^/?]+))?(?:\\?.*)?");
    private static final String[] UID_LABELS = {"batch.kubernetes.io/controller-uid", "controller-uid"};

    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        Matcher m = JOBS.matcher(request.getPath());
        if (!m.matches()) {
            return crud.dispatch(request);
        }
        String body = request.getBody() == null ? "" : request.getUtf8Body();
        RecordedRequest again = at(request, request.method(), request.getPath(), body); // the body is read once
        return switch (request.getMethod()) {
            case "POST" -> create(again, json(body));
            case "PUT" -> update(again, m, json(body));
            case "PATCH" -> update(again, m, merged(current(m), json(body)));
            default -> crud.dispatch(again);
        };
    }

    private static RecordedRequest at(RecordedRequest request, HttpMethod method, String path, String body) {
        return new RecordedRequest(
                request.getHttpVersion(), method, path, request.getHeaders(), new Buffer().writeUtf8(body));
    }

    private MockResponse create(RecordedRequest request, ObjectNode job) {
        if (!job.path("spec").path("manualSelector").asBoolean(false)) {
            for (String label : UID_LABELS) {
                JsonNode inSelector =
                        job.path("spec").path("selector").path("matchLabels").path(label);
                JsonNode inTemplate = job.path("spec")
                        .path("template")
                        .path("metadata")
                        .path("labels")
                        .path(label);
                if (!inSelector.isMissingNode() || !inTemplate.isMissingNode()) {
                    return invalid(
                            job,
                            "spec.selector: Invalid value: " + job.path("spec").path("selector")
                                    + ": `selector` not auto-generated, spec.template.metadata.labels[" + label
                                    + "]: Invalid value: "
                                    + (inTemplate.isMissingNode() ? inSelector : inTemplate)
                                    + ": must be the new Job's uid");
                }
            }
        } else {
            return crud.dispatch(request);
        }
        MockResponse stored = crud.dispatch(request);
        if (stored.code() != 201) {
            return stored;
        }
        job = json(stored.getBody().readUtf8()); // the uid is the server's
        String uid = job.path("metadata").path("uid").asText();
        ObjectNode labels = job.with("spec").with("template").with("metadata").with("labels");
        labels.put("batch.kubernetes.io/controller-uid", uid)
                .put("controller-uid", uid)
                .put(
                        "batch.kubernetes.io/job-name",
                        job.path("metadata").path("name").asText())
                .put("job-name", job.path("metadata").path("name").asText());
        job.with("spec").with("selector").with("matchLabels").put("batch.kubernetes.io/controller-uid", uid);
        MockResponse generated = crud.dispatch(at(
                request,
                HttpMethod.PUT,
                request.getPath().replaceFirst("\\?.*", "") + "/"
                        + job.path("metadata").path("name").asText(),
                job.toString()));
        return generated.setResponseCode(201);
    }

    private MockResponse update(RecordedRequest request, Matcher m, ObjectNode next) {
        JsonNode before = current(m);
        if (before != null) {
            for (String immutable : new String[] {"selector", "template"}) {
                if (!before.path("spec")
                        .path(immutable)
                        .equals(next.path("spec").path(immutable))) {
                    return invalid(
                            next,
                            "spec." + immutable + ": Invalid value: "
                                    + next.path("spec").path(immutable) + ": field is immutable");
                }
            }
        }
        return crud.dispatch(request);
    }

    private ObjectNode current(Matcher m) {
        MockResponse r = crud.handleGet("/apis/batch/v1/namespaces/" + m.group(1) + "/jobs/" + m.group(2));
        return r.code() == 200 ? json(r.getBody().readUtf8()) : null;
    }

    /** RFC 7386: what a JSON merge patch makes of {@code target}. */
    private static ObjectNode merged(ObjectNode target, ObjectNode patch) {
        ObjectNode out = target == null ? Documents.json().createObjectNode() : target.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                out.remove(e.getKey());
            } else if (e.getValue() instanceof ObjectNode o) {
                out.set(e.getKey(), merged(out.get(e.getKey()) instanceof ObjectNode t ? t : null, o));
            } else {
                out.set(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** A 422 as the API server writes it. */
    private static MockResponse invalid(JsonNode job, String message) {
        String name = job.path("metadata").path("name").asText();
        ObjectNode status =
                Documents.json().createObjectNode().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure")
                .put("message", "Job.batch \"" + name + "\" is invalid: " + message)
                .put("reason", "Invalid");
        status.putObject("details").put("name", name).put("group", "batch").put("kind", "Job");
        status.put("code", 422);
        return new MockResponse()
                .setResponseCode(422)
                .setHeader("Content-Type", "application/json")
                .setBody(status.toString());
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) Documents.json().readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
