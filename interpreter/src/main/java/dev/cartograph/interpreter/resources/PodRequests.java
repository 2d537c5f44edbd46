package dev.cartograph.interpreter.resources;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The effective resource request of a pod, by the rule the Kubernetes scheduler uses: per resource,
 * the larger of (every app container plus every restartable init "sidecar") and (each ordinary
 * init container plus the sidecars started before it), plus the pod overhead. A container that
 * sets only a limit requests its limit, as the API server defaults it. Amounts that are not
 * quantities, are negative or exceed {@link Ceilings} are reported with their field and left out.
 * Pure and thread-safe.
 */
public final class PodRequests {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private PodRequests() {}

    /** The effective request of a pod spec (the {@code spec} of a Pod or of a pod template). */
    public static Result of(JsonNode podSpec) {
        List<Issue> issues = new ArrayList<>();
        ResourceList apps = ResourceList.EMPTY;
        JsonNode containers = podSpec.path("containers");
        for (int i = 0; containers.isArray() && i < containers.size(); i++) {
            int index = i;
            apps = apps.plus(request(containers.get(i), () -> "containers[" + index + "]", issues));
        }
        ResourceList sidecars = ResourceList.EMPTY;
        ResourceList initPeak = ResourceList.EMPTY;
        JsonNode inits = podSpec.path("initContainers");
        for (int i = 0; inits.isArray() && i < inits.size(); i++) {
            int index = i;
            JsonNode init = inits.get(i);
            ResourceList request = request(init, () -> "initContainers[" + index + "]", issues);
            if ("Always".equals(init.path("restartPolicy").asText())) {
                sidecars = sidecars.plus(request);
            } else {
                initPeak = initPeak.max(request.plus(sidecars));
            }
        }
        ResourceList effective = apps.plus(sidecars).max(initPeak);
        ResourceList total = effective.plus(read(podSpec.path("overhead"), () -> "overhead", issues));
        total.amounts()
                .forEach((name, amount) -> Ceilings.checkPerPod(name, amount)
                        .ifPresent(why -> issues.add(new Issue(
                                "",
                                name + " " + Quantity.format(amount) + " per pod, summed over its containers, "
                                        + why))));
        return new Result(total, issues);
    }

    /**
     * A container's request: requests, with limits standing in for requests that are not set.
     * Problems are added to {@code problems} as text, each starting with {@code where}.
     */
    public static ResourceList containerRequest(JsonNode container, String where, List<String> problems) {
        List<Issue> issues = new ArrayList<>();
        ResourceList request = request(container, () -> where, issues);
        issues.forEach(i -> problems.add(i.toString()));
        return request;
    }

    /**
     * Parses a {@code {name: quantity}} map; unusable entries are reported to {@code problems} (as
     * {@code where.name: why}) and skipped.
     */
    public static ResourceList parseList(JsonNode map, String where, List<String> problems) {
        List<Issue> issues = new ArrayList<>();
        ResourceList amounts = read(map, () -> where, issues);
        issues.forEach(i -> problems.add(i.toString()));
        return amounts;
    }

    /** {@code where} names the container for issues; it is only built when there is one. */
    private static ResourceList request(JsonNode container, Supplier<String> where, List<Issue> issues) {
        JsonNode resources = container.path("resources");
        ResourceList limits = read(resources.path("limits"), () -> where.get() + ".resources.limits", issues);
        ResourceList requests = read(resources.path("requests"), () -> where.get() + ".resources.requests", issues);
        if (limits.isEmpty() || requests.isEmpty()) {
            return limits.isEmpty() ? requests : limits;
        }
        TreeMap<String, BigDecimal> merged = new TreeMap<>(limits.amounts());
        merged.putAll(requests.amounts());
        return new ResourceList(merged);
    }

    private static ResourceList read(JsonNode map, Supplier<String> where, List<Issue> issues) {
        if (!map.isObject() || map.isEmpty()) {
            return ResourceList.EMPTY;
        }
        TreeMap<String, BigDecimal> amounts = new TreeMap<>();
        map.fields().forEachRemaining(e -> {
            JsonNode value = e.getValue();
            if (value.isNull()) {
                return; // as if absent
            }
            Optional<BigDecimal> amount = amount(value);
            Optional<String> unusable = amount.isEmpty()
                    ? Optional.of("'" + shorten(value.isTextual() ? value.textValue() : value.asText())
                            + "' is not a Kubernetes quantity")
                    : Ceilings.checkPerPod(e.getKey(), amount.get())
                            .map(why -> "quantity " + value.asText() + " " + why);
            if (unusable.isPresent()) {
                issues.add(new Issue(where.get() + key(e.getKey()), unusable.get()));
            } else {
                amounts.put(e.getKey(), amount.get());
            }
        });
        return new ResourceList(amounts);
    }

    private static Optional<BigDecimal> amount(JsonNode value) {
        if (value.isTextual()) {
            return Quantity.parse(value.textValue());
        }
        if (value.isNumber() && !(value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue()))) {
            return Quantity.parse(value.decimalValue().toString());
        }
        return Optional.empty();
    }

    /** A map key as a jq path step: {@code .cpu}, {@code ["nvidia.com/gpu"]}. */
    private static String key(String name) {
        return IDENTIFIER.matcher(name).matches()
                ? "." + name
                : "[\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
    }

    private static String shorten(String text) {
        return text.length() <= Quantity.MAX_TEXT ? text : text.substring(0, Quantity.MAX_TEXT) + "…";
    }

    /**
     * The effective request, and every amount that could not be used.
     *
     * @param issues each unusable amount: where it is (a jq-style path relative to the pod spec, empty
     *               for the pod as a whole) and why
     */
    public record Result(ResourceList request, List<Issue> issues) {
        public Result {
            issues = List.copyOf(issues);
        }

        /** The issues as text, {@code field: why}. */
        public List<String> problems() {
            return issues.stream().map(Issue::toString).toList();
        }
    }

    /** An amount that cannot be used: its field (relative to the pod spec; empty for the whole pod) and why. */
    public record Issue(String field, String message) {
        @Override
        public String toString() {
            return field.isEmpty() ? message : field + ": " + message;
        }
    }
}
