package dev.cartograph.fairshare;

import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * Which queue's head gang is tried next (ADR 0006): from the top of the tree down, the child with the lowest weighted
 * dominant share among those with a waiting gang below them; ties go to the higher priority head, then the earlier
 * submitted, then the queue name. Within a queue the head is the caller's (priority, then submission time). Pure.
 */
public final class FairOrder {
    private FairOrder() {}

    /** A queue's first waiting gang: its priority (higher first) and submission time. */
    public record Head(int priority, Instant submitted) {
        static final Comparator<Head> FIRST =
                Comparator.comparingInt(Head::priority).reversed().thenComparing(Head::submitted);
    }

    /**
     * The leaf queue whose head goes next, or empty when no queue has a waiting gang.
     *
     * @param heads per leaf queue with waiting gangs, its head
     */
    public static Optional<String> next(QueueTree tree, Quotas quotas, Map<String, Head> heads) {
        Optional<String> at = pick(tree.roots(), tree, quotas, heads);
        while (at.isPresent() && !tree.children(at.get()).isEmpty()) {
            at = pick(tree.children(at.get()), tree, quotas, heads);
        }
        return at;
    }

    private static Optional<String> pick(
            java.util.List<String> siblings, QueueTree tree, Quotas quotas, Map<String, Head> heads) {
        String best = null;
        Head bestHead = null;
        double bestShare = 0;
        for (String q : siblings) {
            Optional<Head> head = headBelow(q, tree, heads);
            if (head.isEmpty()) {
                continue;
            }
            double share = quotas.share(q).value();
            if (best == null
                    || share < bestShare
                    || share == bestShare && FairOrder.Head.FIRST.compare(head.get(), bestHead) < 0) {
                best = q;
                bestHead = head.get();
                bestShare = share;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The first head among the queue's subtree. */
    private static Optional<Head> headBelow(String queue, QueueTree tree, Map<String, Head> heads) {
        Optional<Head> own = Optional.ofNullable(heads.get(queue));
        for (String child : tree.children(queue)) {
            Optional<Head> h = headBelow(child, tree, heads);
            if (h.isPresent() && (own.isEmpty() || Head.FIRST.compare(h.get(), own.get()) < 0)) {
                own = h;
            }
        }
        return own;
    }
}
