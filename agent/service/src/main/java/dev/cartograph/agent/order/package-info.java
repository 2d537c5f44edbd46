/**
 * The order of the broker's commands as the agent sees it, so a command read again is not carried out again (issue
 * 33, finding 6; docs/protocol.md, "Commands read again").
 *
 * <ul>
 * <li>{@link dev.cartograph.agent.order.Stamp}: where a command stands among its placement's commands (term, epoch,
 *     issued, with a clock margin).</li>
 * <li>{@link dev.cartograph.agent.order.Deletions}: the last delete carried out per placement, bounded; the pure rule
 *     that refuses a command as STALE.</li>
 * <li>{@link dev.cartograph.agent.order.CommandOrder}: that rule over a durable store on the member (the kube
 *     adapter's ConfigMap), which a delete is written to before it is carried out.</li>
 * </ul>
 *
 * <p><b>Crash points.</b> Dying before a delete is recorded: nothing was deleted; the command is read again. After it
 * is recorded and before the copy is deleted: the next process has the record (an apply read again is refused) and
 * the delete, read again, deletes the copy. After the delete and before its result is durable: the delete read again
 * finds nothing to delete and answers DELETED; the record already holds it.
 */
package dev.cartograph.agent.order;
