/**
 * The fabric8 adapter: discovers served kinds, lists workloads, pods and nodes, and writes pods and
 * statuses. The only package that imports fabric8 (besides the public entry point taking a client).
 */
package dev.cartograph.simulator.kube;
