/**
 * Where a pod may run, in Kubernetes' own terms and with its matching rules: node {@link
 * dev.cartograph.interpreter.scheduling.Taint taints}, pod {@link
 * dev.cartograph.interpreter.scheduling.Toleration tolerations}, required node affinity ({@link
 * dev.cartograph.interpreter.scheduling.NodeSelectorTerm}) and a pod's {@link
 * dev.cartograph.interpreter.scheduling.NodeConstraints} that gathers them. The one definition the
 * interpreter (reading pod templates), the protocol (node summaries), the broker's planner and the
 * local fleet's scheduler share. Immutable records; pure; thread-safe.
 */
package dev.cartograph.interpreter.scheduling;
