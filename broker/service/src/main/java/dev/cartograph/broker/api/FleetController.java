package dev.cartograph.broker.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.DecisionJson;
import dev.cartograph.placement.Demands;
import dev.cartograph.placement.Planner;
import io.micronaut.core.annotation.Nullable;
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
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/** The broker's REST API, read-only but for {@code plan}, which places nothing. */
@Controller("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class FleetController {
    private final BrokerState broker;

    public FleetController(BrokerState broker) {
        this.broker = broker;
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
            description = "Where each is placed, its state and reason, the member's phase, its queue position.")
    public HttpResponse<String> workloads() {
        return ok(Views.workloads(broker.view()));
    }

    @Get("/placements")
    @Operation(
            summary = "The broker's placement records",
            description = "As written to the placements topic (docs/protocol.md).")
    public HttpResponse<String> placements() {
        return ok(Views.placements(broker.view()));
    }

    @Post("/plan")
    @Consumes({MediaType.APPLICATION_JSON, "application/yaml", MediaType.TEXT_PLAIN})
    @Operation(
            summary = "Plan a workload on the current fleet",
            description = "A manifest (JSON or YAML) in; the decision and the "
                    + "per-cluster explanation out. Nothing is placed or reserved.")
    @ApiResponse(responseCode = "422", description = "the manifest cannot be interpreted (no definition, or malformed)")
    public HttpResponse<String> plan(@Body String manifest, @Nullable @QueryValue String policy) {
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
        Planner.Policy p;
        try {
            p = policy == null
                    ? broker.settings().policy()
                    : Planner.Policy.valueOf(policy.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return unprocessable("usage", "policy must be BIN_PACK or SPREAD");
        }
        JsonNode object = objects.get(0);
        Resolution r = Interpreter.of(broker.definitions()).resolve(object);
        if (!(r instanceof Resolution.Resolved resolved)) {
            return unprocessable(
                    r instanceof Resolution.NoDefinition ? "no_definition" : "invalid_object",
                    r.problems().stream().map(Problem::toString).collect(Collectors.joining("; ")));
        }
        BrokerView view = broker.view();
        Decision d = Planner.plan(
                Demands.of(resolved.view()),
                Demands.clusterSelector(object),
                view.fleet()
                        .forPlanning(broker.clock().instant(), broker.settings().heartbeatTimeout()),
                p);
        return ok(DecisionJson.encode(d));
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
