package dev.cartograph.mock.server;

import dev.cartograph.mock.watch.Change;
import dev.cartograph.mock.watch.ChangeLog;
import dev.cartograph.mock.watch.Stored;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The fabric8 CRUD dispatcher, also recording every stored change in a {@link ChangeLog}: what the
 * HTTP watches kubectl uses are served from (the CRUD dispatcher itself only feeds its WebSocket
 * watches). Every create, update and delete of the store passes through {@link #processEvent},
 * under the dispatcher's write lock, so changes are recorded one at a time, in resourceVersion
 * order. A delete gets a fresh resourceVersion, as on a real server. Thread-safe as its parent.
 */
final class RecordingCrudDispatcher extends KubernetesCrudDispatcher {
    private final ChangeLog changes;

    RecordingCrudDispatcher(ChangeLog changes) {
        this.changes = Objects.requireNonNull(changes, "changes");
    }

    /** Called by the CRUD handlers with the write lock held. */
    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        String existing = oldAttributes == null ? null : map.get(oldAttributes);
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        if (Objects.equals(existing, newState)) {
            return;
        }
        Optional<Stored> before =
                existing == null ? Optional.empty() : Optional.of(new Stored(oldAttributes, existing));
        Optional<Stored> after =
                newState == null ? Optional.empty() : keyOf(newState).map(key -> new Stored(key, newState));
        long resourceVersion =
                after.map(Stored::resourceVersion).filter(rv -> rv > 0).orElseGet(this::requestResourceVersion);
        if (before.isPresent() || after.isPresent()) {
            changes.append(new Change(resourceVersion, before, after));
        }
    }

    /** The key the parent stored {@code state} under (it puts the very same string in its map). */
    private Optional<AttributeSet> keyOf(String state) {
        synchronized (map) {
            for (Map.Entry<AttributeSet, String> entry : map.entrySet()) {
                if (entry.getValue() == state) {
                    return Optional.of(entry.getKey());
                }
            }
        }
        return Optional.empty();
    }
}
