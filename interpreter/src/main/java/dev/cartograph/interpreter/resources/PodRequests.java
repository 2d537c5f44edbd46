package dev.cartograph.interpreter.resources;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The effective resource request of a pod, by the rule the Kubernetes scheduler uses: per resource,
 * the larger of (every app container plus every restartable init "sidecar") and (each ordinary
 * init container plus the sidecars started before it), plus the pod overhead. A container that
 * sets only a limit requests its limit, as the API server defaults it. Pure and thread-safe.
 */
public final class PodRequests {
    private PodRequests() {
    }

    /** The effective request of a pod spec (the {@code spec} of a Pod or of a pod template). */
    public static Result of(JsonNode podSpec) {
        List<String> problems = new ArrayList<>();
        ResourceList apps = ResourceList.EMPTY;
        for (JsonNode container : iterate(podSpec.path("containers"))) {
            apps = apps.plus(containerRequest(container, "containers", problems));
        }
        ResourceList sidecars = ResourceList.EMPTY;
        ResourceList initPeak = ResourceList.EMPTY;
        for (JsonNode init : iterate(podSpec.path("initContainers"))) {
            ResourceList request = containerRequest(init, "initContainers", problems);
            if ("Always".equals(init.path("restartPolicy").asText())) {
                sidecars = sidecars.plus(request);
            } else {
                initPeak = initPeak.max(request.plus(sidecars));
            }
        }
        ResourceList effective = apps.plus(sidecars).max(initPeak);
        ResourceList overhead = parseList(podSpec.path("overhead"), "overhead", problems);
        return new Result(effective.plus(overhead), List.copyOf(problems));
    }

    /** A container's request: requests, with limits standing in for requests that are not set. */
    public static ResourceList containerRequest(JsonNode container, String where, List<String> problems) {
        JsonNode resources = container.path("resources");
        String name = container.path("name").asText("?");
        ResourceList limits = parseList(resources.path("limits"), where + "[" + name + "].resources.limits", problems);
        ResourceList requests = parseList(resources.path("requests"), where + "[" + name + "].resources.requests", problems);
        TreeMap<String, BigDecimal> merged = new TreeMap<>(limits.amounts());
        merged.putAll(requests.amounts());
        return new ResourceList(merged);
    }

    /** Parses a {@code {name: quantity}} map; unparsable entries are reported and skipped. */
    public static ResourceList parseList(JsonNode map, String where, List<String> problems) {
        if (!map.isObject()) {
            return ResourceList.EMPTY;
        }
        TreeMap<String, BigDecimal> amounts = new TreeMap<>();
        map.fields().forEachRemaining(e -> {
            JsonNode v = e.getValue();
            String text = v.isNumber() ? v.decimalValue().toPlainString() : v.asText();
            Quantity.parse(text).ifPresentOrElse(q -> amounts.put(e.getKey(), q),
                    () -> problems.add(where + "." + e.getKey() + ": '" + text + "' is not a Kubernetes quantity"));
        });
        return new ResourceList(amounts);
    }

    private static Iterable<JsonNode> iterate(JsonNode array) {
        return array.isArray() ? array : List.of();
    }

    /** The effective request and any quantities that could not be read. */
    public record Result(ResourceList request, List<String> problems) {
    }
}
