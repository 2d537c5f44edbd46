package dev.cartograph.mock.watch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A list as it was some changes ago, rebuilt from the current one by undoing the newest changes of the history (what
 * a watch cache that lags behind serves): an object a change created or moved into the selection is taken out, the
 * state before a change that updated, deleted or moved it out is put back (in its place when it is listed now, else
 * at the end). Pure.
 */
public final class Rewind {
    private Rewind() {}

    /**
     * The items of a list at its {@code resourceVersion}, some changes earlier.
     *
     * @param resourceVersion the resourceVersion the stale list reports; a watch from it replays the changes undone
     */
    public record Rewound(List<JsonNode> items, long resourceVersion) {
        public Rewound {
            items = List.copyOf(items);
        }
    }

    /**
     * {@code items} (the list now, as {@code selection} selects it, after every change in {@code history}) without the
     * newest {@code changesBehind} changes of {@code history} (all of them when it retains fewer).
     */
    public static Rewound of(List<JsonNode> items, Selection selection, ChangeLog.History history, int changesBehind) {
        List<Change> changes = history.changes();
        int keep = Math.max(0, changes.size() - changesBehind);
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        items.forEach(item -> byName.put(keyOf(item), item));
        for (int i = changes.size() - 1; i >= keep; i--) {
            Change change = changes.get(i);
            Optional<JsonNode> before =
                    change.before().filter(selection::matches).map(Stored::object);
            if (before.isPresent()) {
                byName.put(keyOf(before.get()), before.get()); // in its place when it is listed now
            } else {
                change.after().filter(selection::matches).ifPresent(after -> byName.remove(keyOf(after.object())));
            }
        }
        long at = keep == 0 ? history.startsAfter() : changes.get(keep - 1).resourceVersion();
        return new Rewound(new ArrayList<>(byName.values()), at);
    }

    private static String keyOf(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        return metadata.path("namespace").asText("") + "/"
                + metadata.path("name").asText("");
    }
}
