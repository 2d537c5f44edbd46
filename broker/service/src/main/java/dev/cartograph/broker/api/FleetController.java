package dev.cartograph.broker.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.access.AccessControl;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Question;
import dev.cartograph.broker.access.Unavailable;
import dev.cartograph.broker.access.Verdict;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.fleet.DomainReport;
import dev.cartograph.fleet.TopologyLevels;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.DecisionJson;
import dev.cartograph.placement.Demands;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.TopologyAsks;
import dev.cartograph.protocol.PlacementRecord;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The broker's REST API, read-only but for {@code plan}, which places nothing. Every caller is
 * authenticated ({@link AccessFilter}); fleet capacity is any caller's to see, a workload only a caller's
 * that may {@code get} its kind in its namespace on the hub, and {@code plan} needs {@code create} there
 * (docs/api-access.md). Runs on the blocking pool: permission checks may ask the hub.
 */
@Controller("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@ExecuteOn(TaskExecutors.BLOCKING)
public class FleetController {
    private final BrokerState broker;
    private final Permissions permissions;

    public FleetController(BrokerState broker, AccessControl access) {
        this.broker = broker;
        this.permissions = new Permissions(access, broker);
    }

    @Get("/fleet")
    @Operation(
            summary = "The fleet snapshot",
            description =
                    "Every cluster with its nodes (reserved capacity counted as allocated), "
                            + "readiness, and per GPU model total/allocated/reserved/free GPUs and the largest free block; fleet totals; queue length.")
    public HttpResponse<String> fleet() {
        return ok(Views.fleet(
                broker.view(), broker.clock().instant(), broker.settings().heartbeatTimeout()));
    }

    @Get("/fleet/domains")
    @Operation(
            summary = "Free GPUs per topology domain",
            description =
                    "Per cluster, topology level (cartograph.broker.topology-levels, widest first), domain (the level's"
                            + " node label value) and GPU model: nodes, ready nodes, total and free GPUs, the largest free block"
                            + " on one node, wholly free nodes. Nodes without a level's label are in no domain of it."
                            + " level: only that level's rows.")
    @ApiResponse(responseCode = "400", description = "level is not one of the configured topology levels")
    public HttpResponse<String> domains(@Nullable @QueryValue String level) {
        TopologyLevels levels = broker.settings().topologyLevels();
        DomainReport report = Views.domainReport(
                broker.view(), broker.clock().instant(), broker.settings().heartbeatTimeout(), levels);
        if (level != null) {
            Optional<DomainReport> one = report.only(level);
            if (one.isEmpty()) {
                return HttpResponse.<String>badRequest()
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(Views.error(
                                        "bad_request",
                                        "level " + level + " is not a topology level of this broker; its levels"
                                                + " (cartograph.broker.topology-levels) are "
                                                + String.join(", ", levels.keys()))
                                .toString());
            }
            report = one.get();
        }
        return ok(Views.domains(report));
    }

    @Get("/queues")
    @Operation(
            summary = "The queues",
            description = "Per queue (Queue objects on the hub, and default): weight, parent, GPUs per model nominal,"
                    + " in use and borrowed, the totals, waiting gangs, weighted dominant share, problems with its"
                    + " Queue object. Queues' totals are any caller's to see, like the fleet's capacity.")
    public HttpResponse<String> queues() {
        return ok(Views.queues(broker.view()));
    }

    @Get("/clusters/{name}")
    @Operation(summary = "One cluster of the fleet snapshot")
    @ApiResponse(responseCode = "404", description = "no such cluster has reported")
    public HttpResponse<String> cluster(@PathVariable String name) {
        ObjectNode fleet = Views.fleet(
                broker.view(), broker.clock().instant(), broker.settings().heartbeatTimeout());
        for (JsonNode c : fleet.path("clusters")) {
            if (c.path("name").asText().equals(name)) {
                return ok(c);
            }
        }
        return HttpResponse.<String>notFound()
                .contentType(MediaType.APPLICATION_JSON)
                .body(Views.error("not_found", "no cluster named " + name + " has reported")
                        .toString());
    }

    @Get("/workloads")
    @Operation(
            summary = "Federated workloads",
            description = "Where each is placed, its state and reason, the member's phase, its queue position. "
                    + "Only the workloads the caller may get on the hub.")
    public HttpResponse<String> workloads(HttpRequest<?> request) {
        BrokerView view = broker.view();
        Permissions.Visible visible = permissions.visible(
                AccessFilter.caller(request), view.placements().values());
        if (visible instanceof Permissions.Unknown u) {
            return Refusals.unavailable(u.why().reason());
        }
        return ok(Views.workloads(view, ((Permissions.Uids) visible).uids()::contains));
    }

    @Get("/workloads/{uid}")
    @Operation(
            summary = "One federated workload, by its hub object's uid",
            description = "As listed by GET /api/v1/workloads, with verdicts: the latest decision per cluster (the"
                    + " chosen one first), why each does or does not take it; none for a placement not decided since"
                    + " the broker started.")
    @ApiResponse(responseCode = "403", description = "the caller may not get this kind in its namespace on the hub")
    @ApiResponse(responseCode = "404", description = "the broker has no placement with this uid")
    public HttpResponse<String> workload(HttpRequest<?> request, @PathVariable String uid) {
        BrokerView view = broker.view();
        PlacementRecord p = view.placements().get(uid);
        if (p == null) {
            return HttpResponse.<String>notFound()
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(Views.error("not_found", "the broker has no placement for uid " + uid)
                            .toString());
        }
        Caller caller = AccessFilter.caller(request);
        Verdict v = permissions.mayGet(caller, p);
        if (v instanceof Verdict.Denied d) {
            return Refusals.forbidden(caller, d);
        }
        if (v instanceof Unavailable u) {
            return Refusals.unavailable(u.reason());
        }
        return ok(Views.explained(view, p));
    }

    @Get("/placements")
    @Operation(
            summary = "The broker's placement records",
            description = "As written to the placements topic (docs/protocol.md). Only those of workloads the "
                    + "caller may get on the hub.")
    public HttpResponse<String> placements(HttpRequest<?> request) {
        BrokerView view = broker.view();
        Permissions.Visible visible = permissions.visible(
                AccessFilter.caller(request), view.placements().values());
        if (visible instanceof Permissions.Unknown u) {
            return Refusals.unavailable(u.why().reason());
        }
        return ok(Views.placements(view, ((Permissions.Uids) visible).uids()::contains));
    }

    @Post("/plan")
    @Consumes({MediaType.APPLICATION_JSON, "application/yaml", MediaType.TEXT_PLAIN})
    @Operation(
            summary = "Plan a workload on the current fleet",
            description = "A manifest (JSON or YAML) in; the decision and the "
                    + "per-cluster explanation out. Nothing is placed or reserved.")
    @ApiResponse(responseCode = "403", description = "the caller may not create this kind in its namespace on the hub")
    @ApiResponse(responseCode = "422", description = "the manifest cannot be interpreted (no definition, or malformed)")
    public HttpResponse<String> plan(
            HttpRequest<?> request, @Body String manifest, @Nullable @QueryValue String policy) {
        List<JsonNode> objects;
        try {
            objects = dev.cartograph.interpreter.Documents.read(
                    new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            return unprocessable("unreadable", "the body is not JSON or YAML: " + e.getMessage());
        }
        if (objects.size() != 1) {
            return unprocessable("usage", "plan takes one workload; the body has " + objects.size() + " objects");
        }
        JsonNode object = objects.get(0);
        Interpreter interpreter = Interpreter.of(broker.definitions());
        if (interpreter.definitionFor(object).isEmpty()) {
            return unresolved(interpreter.resolve(object)); // no definition or no kind: nothing is run
        }
        Caller caller = AccessFilter.caller(request);
        // asked before the definition runs: only callers who may create the kind get the interpreter's time
        Verdict v = permissions.may(
                caller,
                Question.CREATE,
                object.path("apiVersion").asText(),
                object.path("kind").asText(),
                namespace(object));
        if (v instanceof Verdict.Denied d) {
            return Refusals.forbidden(caller, d);
        }
        if (v instanceof Unavailable u) {
            return Refusals.unavailable(u.reason());
        }
        Planner.Policy p;
        try {
            p = policy == null
                    ? broker.settings().policy()
                    : Planner.Policy.valueOf(policy.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return unprocessable("usage", "policy must be BIN_PACK or SPREAD");
        }
        Resolution r = interpreter.resolve(object);
        if (!(r instanceof Resolution.Resolved resolved)) {
            return unresolved(r);
        }
        TopologyAsks.Asked topology = TopologyAsks.of(object, resolved.view());
        if (topology.problem().isPresent()) {
            return unprocessable("invalid_object", topology.problem().get());
        }
        BrokerView view = broker.view();
        Decision d = Planner.plan(
                Demands.of(resolved.view()),
                Demands.clusterSelector(object),
                dev.cartograph.placement.PlanningFleet.of(view.fleet()
                        .forPlanning(broker.clock().instant(), broker.settings().heartbeatTimeout())),
                p,
                dev.cartograph.placement.GpuBudget.NONE,
                topology.topology());
        return ok(DecisionJson.encode(d));
    }

    /** The manifest's namespace; {@code default} when it names none, as kubectl would create it. */
    private static String namespace(JsonNode object) {
        String ns = object.path("metadata").path("namespace").asText("");
        return ns.isBlank() ? "default" : ns;
    }

    private static HttpResponse<String> unresolved(Resolution r) {
        return unprocessable(
                r instanceof Resolution.NoDefinition ? "no_definition" : "invalid_object",
                r.problems().stream().map(Problem::toString).collect(Collectors.joining("; ")));
    }

    private static HttpResponse<String> ok(JsonNode body) {
        return HttpResponse.ok(body.toString()).contentType(MediaType.APPLICATION_JSON);
    }

    private static HttpResponse<String> unprocessable(String code, String message) {
        return HttpResponse.<String>unprocessableEntity()
                .contentType(MediaType.APPLICATION_JSON)
                .body(Views.error(code, message).toString());
    }
}
