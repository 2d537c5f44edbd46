/**
 * Faults a real fleet's API servers show, for a {@code MockApiServer} to answer on purpose: rules that throttle
 * ({@code 429} and {@code Retry-After}), delay, fail ({@code 5xx} with a kube-style {@code Status}), reset the
 * connection or serve a stale list, chosen by Kubernetes verb and resource or path, firing with a seeded
 * probability, for the next N requests or for a while ({@link dev.cartograph.mock.fault.FaultRule},
 * {@link dev.cartograph.mock.fault.Faults}); and the watch faults: open watches expired as at the server's timeout,
 * and a compaction after which a watch resuming from an older resourceVersion gets {@code 410 Expired}.
 *
 * <pre>{@code
 * ActiveFault leases = server.faults().add(FaultRule.on(
 *                 RequestMatch.verbs("update").resource("coordination.k8s.io", "leases"), Fault.throttle(1))
 *         .forNext(3));
 * server.faults().expireWatches();   // informers watch again from their last resourceVersion
 * server.faults().compact();         // ...and get 410 Expired if they missed a change
 * }</pre>
 *
 * Pure but for {@link dev.cartograph.mock.fault.Faults}' lock and the watches it is given.
 */
package dev.cartograph.mock.fault;
