/**
 * The agent's Kafka adapter: {@link dev.cartograph.agent.kafka.OwnTopics} (this cluster's own topics
 * {@code P.from.CLUSTER.*}, created when missing), the {@link dev.cartograph.agent.kafka.Publisher}
 * (summaries, heartbeats, command results, to those topics only) and the
 * {@link dev.cartograph.agent.kafka.CommandLoop} over this cluster's command topic.
 *
 * <p><b>Crash points of the command loop.</b> For each command: handle (write to the cluster), publish
 * the result and wait until Kafka has it, then commit the offset.
 * <ul>
 * <li>Dies (or Kafka fails) before the result is durable: nothing is committed; the command is read
 *     again (by this agent on a new consumer, or after a restart) and applied again, which changes
 *     nothing (the apply is idempotent: the object is found by its placement label, or a create
 *     answered AlreadyExists finds it) and answers the same outcome.</li>
 * <li>Dies after the result is durable but before the commit: the broker has the result; the
 *     command is read and answered again, and the broker ignores the repeated answer (same epoch,
 *     state already recorded).</li>
 * <li>Dies after the commit: done; nothing is repeated.</li>
 * </ul>
 * Offsets can still be lost (expired, reset): the group then starts from the earliest command. What was carried out
 * is not carried out again only because the handler refuses a command ordered before a delete it recorded
 * ({@link dev.cartograph.agent.order}).
 * {@code CommandLoopIT} injects the first two through the loop's seams ({@link
 * dev.cartograph.agent.kafka.CommandSource}, {@link dev.cartograph.agent.kafka.CommandLoop.Results}).
 */
package dev.cartograph.agent.kafka;
