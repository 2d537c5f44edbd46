/**
 * The fabric8 adapter: discovers served kinds, lists workloads, pods and nodes, and writes pods and
 * statuses; {@link dev.cartograph.simulator.kube.MemberSimulators} builds a simulator on a member's client.
 * The only package of the simulator that imports fabric8.
 */
package dev.cartograph.simulator.kube;
