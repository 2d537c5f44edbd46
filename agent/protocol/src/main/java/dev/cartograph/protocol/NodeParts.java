package dev.cartograph.protocol;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the nodes a reader decodes have in common, decoded once and shared: nodes of one shape get the same
 * labels (but the hostname), taints list and allocatable {@link ResourceList}, equal allocations the same list.
 * A fleet of a few node types then costs a reader little more than each node's name, labels map and allocation,
 * and a node record whose parts were seen before is decoded without parsing them again. Parts are keyed by their
 * exact JSON text, so what is shared is exactly what decoding (with its checks) gave for that text. Bounded: past
 * {@value #MAX_ENTRIES} distinct parts it starts again (sharing is lost for what was held, never correctness).
 * Not thread-safe: one reader.
 */
public final class NodeParts {
    static final int MAX_ENTRIES = 100_000;

    /** A range of a record's bytes: the JSON text of one part. */
    static final class Text {
        private final byte[] bytes;
        private final int from;
        private final int to;
        private final int hash;

        Text(byte[] bytes, int from, int to) {
            this(bytes, from, to, hash(bytes, from, to));
        }

        /** With {@code hash} computed by the caller on its way over the bytes, as {@link #hash} does. */
        Text(byte[] bytes, int from, int to, int hash) {
            this.bytes = bytes;
            this.from = from;
            this.to = to;
            this.hash = hash;
        }

        static int hash(byte[] bytes, int from, int to) {
            int h = 1;
            for (int i = from; i < to; i++) {
                h = 31 * h + bytes[i];
            }
            return h;
        }

        /** A copy holding only this range (so a cache does not keep the whole record). */
        Text compact() {
            return from == 0 && to == bytes.length ? this : new Text(Arrays.copyOfRange(bytes, from, to), 0, to - from);
        }

        byte[] bytes() {
            return bytes;
        }

        int from() {
            return from;
        }

        int length() {
            return to - from;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Text t && t.hash == hash && Arrays.equals(bytes, from, to, t.bytes, t.from, t.to);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * The cluster and incarnation of the node record read last, so the records of one cluster share those strings
     * (no copy per record, and comparing them is comparing references).
     */
    String cluster;

    String incarnation;

    private final Map<Text, Map<String, String>> labels = new HashMap<>();
    private final Map<Text, List<Taint>> taints = new HashMap<>();
    /** Each shared labels map's entries, in its order, with a last slot left empty (see {@link #entries}). */
    private final Map<Map<String, String>, Map.Entry<String, String>[]> entries = new IdentityHashMap<>();

    private final Map<Text, ResourceList> resources = new HashMap<>();

    Map<String, String> labels(Text text, Supplier<Map<String, String>> read) {
        return shared(labels, text, () -> Map.copyOf(read.get()));
    }

    List<Taint> taints(Text text, Supplier<List<Taint>> read) {
        return shared(taints, text, () -> List.copyOf(read.get()));
    }

    /**
     * The entries of {@code shared} (labels this reader shares) in its order, and one slot more, empty, for the
     * caller to fill: a copy, for the caller to keep.
     */
    @SuppressWarnings("unchecked")
    Map.Entry<String, String>[] entries(Map<String, String> shared) {
        Map.Entry<String, String>[] found = entries.get(shared);
        if (found == null) {
            found = shared.entrySet().toArray(new Map.Entry[shared.size() + 1]);
            entries.put(shared, found);
        }
        return found.clone();
    }

    /** A node's allocatable or allocated amounts; {@code read} reads and checks them the first time. */
    ResourceList resources(Text text, Supplier<ResourceList> read) {
        return shared(resources, text, read);
    }

    private <T> T shared(Map<Text, T> cache, Text key, Supplier<T> read) {
        T found = cache.get(key);
        if (found != null) {
            return found;
        }
        if (labels.size() + taints.size() + resources.size() >= MAX_ENTRIES) {
            labels.clear();
            entries.clear();
            taints.clear();
            resources.clear();
        }
        T value = read.get(); // throws for a bad part: nothing is kept
        cache.put(key.compact(), value);
        return value;
    }
}
