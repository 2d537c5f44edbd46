package dev.cartograph.broker.kafka;

import dev.cartograph.broker.kafka.Records.Read;
import dev.cartograph.protocol.ClusterAssembly;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterRecord.Header;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Which of one cluster topic's records, read together, must be decoded and put into its {@link ClusterAssembly}
 * so that it ends exactly as if every one had been: a reader of a compacted topic needs only the newest record of
 * each key, and catching up on a long topic then decodes each node about once instead of once per change.
 *
 * <p>A node or placement record is skipped when a later record of the same key in the same run decides that
 * key's state (a record read, a tombstone, or one that cannot be read, which drops what was held); one that
 * claims another cluster decides nothing, so the record before it is still read. Across headers only when every
 * header of the run is read, shares one stamp, and the last is the newest of them and completes a summary: the
 * headers before it then change nothing the last one does not (their summaries are never taken, a reader takes
 * the last one). If the stamp is new, each record kept after the first header must carry it (a record of an
 * older stamp written after a new stamp's header survives in order only); otherwise, and when the assembly
 * could refuse a record for its size bound, every record is read in order. Skipped records are never decoded:
 * one that could not have been read is not counted as poison (compaction would have removed it too). The set of
 * changed nodes a summary names can only get smaller (a node changed and changed back is not named), never miss
 * a change. Pure; the decoding and the assembly are the caller's.
 */
final class Newest {
    /** A record to put into the assembly: its index in the run, and what it reads as. */
    record Planned(int index, Read read) {}

    private Newest() {}

    /** Whether a cluster topic's key is a header's: the cluster's name, without '/'. */
    static boolean headerKey(String key) {
        return key != null && key.indexOf('/') < 0;
    }

    /**
     * The records of a run whose last record is a header (by key), in order, with how they read.
     *
     * @param keys   the run's keys (a key may be null)
     * @param decode how the record at an index reads (called at most once per index)
     */
    static List<Planned> upToHeader(List<String> keys, IntFunction<Read> decode, ClusterAssembly assembly) {
        int last = keys.size() - 1;
        if (last < 0 || !headerKey(keys.get(last))) {
            throw new IllegalArgumentException("the run does not end with a header");
        }
        Read[] reads = new Read[keys.size()];
        IntFunction<Read> read = i -> reads[i] != null ? reads[i] : (reads[i] = decode.apply(i));
        Header newest = header(read.apply(last));
        if (newest != null && assembly.hasRoomFor(keys.size()) && assembly.completes(newest)) {
            int first = firstOfHeaders(keys, read, newest);
            if (first >= 0) {
                List<Planned> kept = newestPerKey(keys, last - 1, read);
                if (assembly.stamp().equals(Optional.of(newest.stamp())) || keepStamp(kept, first, newest)) {
                    kept.add(new Planned(last, read.apply(last)));
                    return kept;
                }
            }
        }
        return all(keys.size(), read);
    }

    /** The records of a run without a header, in order, with how they read. */
    static List<Planned> withoutHeader(List<String> keys, IntFunction<Read> decode, ClusterAssembly assembly) {
        if (keys.stream().anyMatch(Newest::headerKey)) {
            throw new IllegalArgumentException("the run holds a header");
        }
        return assembly.hasRoomFor(keys.size())
                ? newestPerKey(keys, keys.size() - 1, decode)
                : all(keys.size(), decode);
    }

    /**
     * The index of the run's first header, if every header before the last reads as one with the last one's
     * stamp and an older sequence; -1 otherwise.
     */
    private static int firstOfHeaders(List<String> keys, IntFunction<Read> read, Header newest) {
        int first = keys.size() - 1;
        for (int i = keys.size() - 2; i >= 0; i--) {
            if (headerKey(keys.get(i))) {
                Header h = header(read.apply(i));
                if (h == null || !h.stamp().equals(newest.stamp()) || h.sequence() >= newest.sequence()) {
                    return -1;
                }
                first = i;
            }
        }
        return first;
    }

    /** Whether every node or placement record kept after index {@code first} carries the newest header's stamp. */
    private static boolean keepStamp(List<Planned> kept, int first, Header newest) {
        for (Planned p : kept) {
            if (p.index() > first && p.read() instanceof Read.Part part) {
                ClusterRecord r = part.record();
                ClusterRecord.Stamp s = r instanceof ClusterRecord.Node n
                        ? n.stamp()
                        : r instanceof ClusterRecord.Placed pl ? pl.stamp() : newest.stamp();
                if (!s.equals(newest.stamp())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** From index {@code to} down to 0, headers left out: each key's records up to and including the one that decides it. */
    private static List<Planned> newestPerKey(List<String> keys, int to, IntFunction<Read> read) {
        List<Planned> out = new ArrayList<>(to + 1);
        Set<String> decided = new HashSet<>(2 * (to + 1));
        for (int i = to; i >= 0; i--) {
            String key = keys.get(i);
            if (headerKey(key) || (key != null && decided.contains(key))) {
                continue;
            }
            Read r = read.apply(i);
            out.add(new Planned(i, r));
            if (key != null && decides(r)) {
                decided.add(key);
            }
        }
        Collections.reverse(out);
        return out;
    }

    /** Whether a record sets its key's state whatever came before: read, or unreadable (what was held is dropped). */
    private static boolean decides(Read r) {
        return r instanceof Read.Part
                || (r instanceof Read.Poison p && p.unreadable().isPresent());
    }

    private static List<Planned> all(int size, IntFunction<Read> read) {
        List<Planned> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(new Planned(i, read.apply(i)));
        }
        return out;
    }

    private static Header header(Read r) {
        return r instanceof Read.Part p && p.record() instanceof Header h ? h : null;
    }
}
