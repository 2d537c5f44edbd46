/**
 * The broker's core: one thread ({@link dev.cartograph.broker.coordinate.Coordinator}) that takes every input in
 * batches, decides, and carries out what it decided once per batch.
 *
 * <h2>State</h2>
 * Everything known of one placement is one {@link dev.cartograph.broker.coordinate.PlacementState} (its durable
 * record, the hub object as last seen and what it asks, the last decision, what went to the member and when, what
 * was mirrored, refusals, fencing, failover's watch), kept per hub object uid in the
 * {@link dev.cartograph.broker.coordinate.PlacementStore}; forgetting a placement is one removal. The fleet's
 * capacity is {@code fleet.Fleet}; reservations on it are made through the store, so they are undone with it.
 * A placement's record moves through the states of {@code protocol.PlacementRecord.State}:
 * <pre>
 *   (new hub object) → QUEUED → PLACED → APPLIED ─┬→ (copy runs; status mirrored)
 *                        ↑  ↓       │        │    ├→ SUSPENDED (suspended on the hub) → QUEUED (resumed: home first)
 *                        │  FAILED  │        │    └→ DELETING (hub object deleted) → tombstone, forgotten
 *                        └──────────┴────────┘ (cluster lost, copy gone, not started, refused, preempted: epoch + 1)
 * </pre>
 *
 * <h2>Transitions: one function</h2>
 * What happens to a placement when something is observed of it — its hub object changed or gone, an agent's answer,
 * the clock's tick (a lost cluster, a gang not started, a copy gone, a command unanswered) — is one pure switch over
 * its state, {@link dev.cartograph.broker.coordinate.PlacementTransition#next}; the
 * {@link dev.cartograph.broker.coordinate.PlacementMachine} carries each step out through the one part that does it.
 * What is queued is placed by one {@link dev.cartograph.broker.coordinate.SchedulingCycle} after each batch (changes
 * that add pods, then queue heads in fair order, planned on a snapshot of the fleet, preempting where queues allow,
 * bound), the only caller of the planner, with or without Queues on the hub.
 *
 * <h2>Inputs</h2>
 * {@link dev.cartograph.broker.coordinate.Input}: cluster and workload summaries and command results (agents),
 * placement records read back (other leaders), hub objects and their dependencies, Queues and definitions (the
 * hub), the lease, and the clock's tick.
 *
 * <h2>Effects</h2>
 * {@link dev.cartograph.broker.coordinate.Effects}, as values: placement records and tombstones, commands to
 * agents, and hub writes (finalizers, labels, annotations, status, Events). A batch's records and commands go out
 * in one durable write (one Kafka transaction) at the end of the batch, its hub writes after it; a batch that does
 * not commit is undone ({@link dev.cartograph.broker.coordinate.PlacementStore#undo}) and what it touched is
 * handled again at the next tick. An input whose handling throws is undone alone, then failed with the reason
 * ({@link dev.cartograph.broker.coordinate.Quarantine}).
 *
 * <p>Everything in this package but the {@code Coordinator}'s public methods, {@code Input} and the published
 * {@code BrokerView} is confined to the coordinator's thread, and the store checks it
 * ({@link dev.cartograph.broker.coordinate.WriterThread}).
 */
package dev.cartograph.broker.coordinate;
