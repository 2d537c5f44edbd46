package dev.cartograph.broker.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.access.AccessControl;
import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Unavailable;
import dev.cartograph.broker.access.Verdict;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.usage.Grouping;
import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageRow;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GPU usage (ADR 0006): GPU-seconds and GPU-hours per queue or per hub namespace and GPU model, summed from the
 * hourly buckets the leader keeps. Queue totals are any caller's, like the queues' report; a namespace's rows only a
 * caller's that may {@code get} some federated workload kind in it (docs/api-access.md). Runs on the blocking pool.
 */
@Controller("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@ExecuteOn(TaskExecutors.BLOCKING)
public class UsageController {
    private final BrokerState broker;
    private final Permissions permissions;

    public UsageController(BrokerState broker, AccessControl access) {
        this.broker = broker;
        this.permissions = new Permissions(access, broker);
    }

    @Get("/usage")
    @Operation(
            summary = "GPU usage since an instant",
            description = "GPU-seconds and GPU-hours per queue (by=queue, the default) or hub namespace"
                    + " (by=namespace) and GPU model, from the start of the UTC hour 'since' falls in. since: an ISO"
                    + " instant or a duration back from now (7d, 24h, 90m). Namespace rows only for namespaces where"
                    + " the caller may get a federated workload kind.")
    @ApiResponse(responseCode = "400", description = "since or by cannot be read; the message says which and why")
    @ApiResponse(responseCode = "503", description = "usage cannot be read now (the usage topic is unreachable)")
    public HttpResponse<String> usage(
            HttpRequest<?> request, @Nullable @QueryValue String since, @Nullable @QueryValue String by) {
        UsageQuery.Read read = UsageQuery.read(since, by, broker.clock().instant());
        if (read instanceof UsageQuery.Bad bad) {
            return HttpResponse.<String>badRequest()
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(Views.error("bad_request", bad.reason()).toString());
        }
        UsageQuery q = ((UsageQuery.Ok) read).query();
        Ledger ledger;
        try {
            ledger = broker.usage();
        } catch (Exception e) {
            return HttpResponse.<String>status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header("Retry-After", "5")
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(Views.error("usage_unavailable", "usage cannot be read now: " + e.getMessage())
                            .toString());
        }
        List<UsageRow> rows = ledger.since(q.since(), q.by());
        if (q.by() == Grouping.NAMESPACE) {
            Caller caller = AccessFilter.caller(request);
            Set<ApiResource> kinds = workloadKinds();
            Map<String, Verdict> verdicts = new HashMap<>();
            for (UsageRow row : rows) {
                Verdict v = verdicts.computeIfAbsent(row.group(), ns -> permissions.mayGetAny(caller, kinds, ns));
                if (v instanceof Unavailable u) {
                    return Refusals.unavailable(u.reason());
                }
            }
            rows = rows.stream()
                    .filter(r -> verdicts.get(r.group()) instanceof Verdict.Allowed)
                    .toList();
        }
        return HttpResponse.ok(render(q, rows).toString()).contentType(MediaType.APPLICATION_JSON);
    }

    /** The kinds the broker federates that the hub serves: those of its placements first, then every definition's. */
    private Set<ApiResource> workloadKinds() {
        Set<ApiResource> kinds = new LinkedHashSet<>();
        for (PlacementRecord p : broker.view().placements().values()) {
            broker.resource(p.target().apiVersion(), p.target().kind()).ifPresent(kinds::add);
        }
        for (WorkloadDefinition d : broker.definitions().all()) {
            broker.resource(d.kind().apiVersion(), d.kind().kind()).ifPresent(kinds::add);
        }
        return kinds;
    }

    static ObjectNode render(UsageQuery q, List<UsageRow> rows) {
        ObjectNode o = Documents.json().createObjectNode();
        o.put("since", dev.cartograph.usage.Hours.bucket(q.since()).toString());
        o.put("by", q.by().label());
        ArrayNode out = o.putArray("rows");
        for (UsageRow r : rows) {
            out.addObject()
                    .put(q.by().label(), r.group())
                    .put("gpuModel", r.gpuModel())
                    .put("gpuSeconds", r.gpuSeconds())
                    .put("gpuHours", Math.round(r.gpuHours() * 1_000) / 1_000.0);
        }
        return o;
    }
}
