package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.mock.selector.FieldSelector;
import dev.cartograph.mock.table.IncludeObject;
import dev.cartograph.mock.table.Tables;
import dev.cartograph.mock.watch.ChangeLog;
import dev.cartograph.mock.watch.Rewind;
import dev.cartograph.mock.watch.Selection;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * GETs of resources (not watches) that need what the CRUD dispatcher cannot give: a server-side
 * {@code Table} ({@code Accept: ...;as=Table;...}, what {@code kubectl get} prints), and lists as a
 * real server sends them: typed ({@code PodList}, where the CRUD dispatcher says {@code List}) and
 * filtered by a {@code fieldSelector} on any field (the CRUD dispatcher knows only {@code metadata.name}
 * and {@code metadata.namespace} and returns nothing for other fields). Objects are read from the CRUD
 * dispatcher without the field selector, then filtered and rendered here. Only kinds that discovery
 * serves (built-in, or a stored CRD's served version) are handled; other paths go to the CRUD dispatcher.
 * A list a stale-list fault fired on ({@link FaultInjection#STALE_CHANGES_HEADER}) is rewound that many changes
 * ({@link Rewind}), as a lagging watch cache serves it. Thread-safe: reads go through the CRUD dispatcher's lock; the rest is per request.
 */
final class ResourceReads {
    private static final String FIELD_SELECTOR = "fieldSelector";

    private final KubernetesCrudDispatcher delegate;
    private final ServedTypes types;
    private final Clock clock;
    private final ChangeLog changes;
    private final ObjectMapper mapper = new ObjectMapper();

    ResourceReads(KubernetesCrudDispatcher delegate, ServedTypes types, Clock clock, ChangeLog changes) {
        this.delegate = delegate;
        this.types = types;
        this.clock = clock;
        this.changes = changes;
    }

    /** The response for a GET of {@code path} when it needs a Table, a field selector or a typed list, else empty. */
    Optional<MockResponse> handle(RecordedRequest request, String path) {
        Query query = Query.of(request.getPath());
        boolean table = String.valueOf(request.getHeader("Accept")).contains("as=Table");
        if (query.isWatch()) {
            return Optional.empty();
        }
        return ResourcePath.parse(path)
                .filter(resource -> table || resource.isList())
                .flatMap(resource -> types.of(resource)
                        .map(type -> read(path, query, resource, type, table, staleChanges(request))));
    }

    private MockResponse read(
            String path,
            Query query,
            ResourcePath resource,
            ServedTypes.ServedType type,
            boolean table,
            int staleChanges) {
        FieldSelector selector = new FieldSelector(List.of());
        if (resource.isList() && query.get(FIELD_SELECTOR).isPresent()) {
            FieldSelector.Parsed parsed =
                    FieldSelector.parse(query.get(FIELD_SELECTOR).get());
            if (parsed instanceof FieldSelector.Invalid invalid) {
                return Responses.status(400, "BadRequest", invalid.reason());
            }
            selector = ((FieldSelector.Valid) parsed).selector();
        }
        MockResponse stored = delegate.handleGet(path + query.without(FIELD_SELECTOR));
        if (stored.code() != 200 || stored.getBody() == null) {
            return stored;
        }
        try {
            JsonNode body = mapper.readTree(stored.getBody().readUtf8());
            if (resource.isList()) {
                body = typedList(body, selector, resource, type);
                if (staleChanges > 0) {
                    body = rewound(
                            body, new CollectionQuery(resource, query).selection(delegate, selector), staleChanges);
                }
            }
            if (!table) {
                return Responses.json(200, mapper.writeValueAsString(body));
            }
            IncludeObject include =
                    IncludeObject.fromParameter(query.get("includeObject").orElse(null));
            ObjectNode rendered = resource.isList()
                    ? Tables.ofList(type.columns(), body, include, clock.instant())
                    : Tables.ofObject(type.columns(), body, include, clock.instant());
            return Responses.json(200, mapper.writeValueAsString(rendered))
                    .setHeader("Content-Type", Tables.CONTENT_TYPE);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "the CRUD store returned unreadable JSON for " + path + " (a mock bug; retry will not help)", e);
        }
    }

    /** The list {@code changesBehind} changes ago, with that resourceVersion. */
    private JsonNode rewound(JsonNode list, Selection selection, int changesBehind) {
        if (!list.isObject() || !list.path("items").isArray()) {
            return list;
        }
        long at = list.path("metadata").path("resourceVersion").asLong(0);
        List<JsonNode> items = new ArrayList<>();
        list.path("items").forEach(items::add);
        Rewind.Rewound past = Rewind.of(items, selection, changes.history(at), changesBehind);
        ObjectNode copy = ((ObjectNode) list).deepCopy();
        copy.putArray("items").addAll(past.items());
        if (copy.path("metadata") instanceof ObjectNode metadata) {
            metadata.put("resourceVersion", String.valueOf(past.resourceVersion()));
        }
        return copy;
    }

    /** How many changes behind a stale-list fault asks this request's list to be; 0 for none. */
    private static int staleChanges(RecordedRequest request) {
        String header = request.getHeader(FaultInjection.STALE_CHANGES_HEADER);
        return header == null ? 0 : Integer.parseInt(header);
    }

    /**
     * The list as a real server sends it: typed ({@code EventList}, not the CRUD store's {@code List},
     * which typed Go clients such as kubectl describe's event lookup fail to decode) and field-selected.
     */
    private static JsonNode typedList(
            JsonNode list, FieldSelector selector, ResourcePath resource, ServedTypes.ServedType type) {
        if (!list.isObject() || !list.path("items").isArray()) {
            return list;
        }
        ObjectNode copy = ((ObjectNode) list).deepCopy();
        copy.put(
                "apiVersion",
                resource.group().isEmpty() ? resource.version() : resource.group() + "/" + resource.version());
        copy.put("kind", type.listKind());
        ArrayNode items = copy.putArray("items");
        list.path("items").forEach(item -> {
            if (selector.matches(item)) {
                items.add(item);
            }
        });
        return copy;
    }
}
