/**
 * A member-cluster simulator for tests and the local demo: {@link dev.cartograph.simulator.MemberSimulator}
 * stands in for the scheduler, kubelet and workload controllers of a fabric8 CRUD mock API server.
 * Pure decisions live in {@code pods} (which pods a workload has, its gangs), {@code schedule}
 * (where pods fit) and {@code status} (status shapes, lifecycle); {@code kube} is the thin fabric8
 * adapter that reads, asks them, and writes, and builds a simulator on a member's client.
 */
package dev.cartograph.simulator;
