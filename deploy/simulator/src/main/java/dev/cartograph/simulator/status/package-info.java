/** Per-kind status shapes (data, {@code simulator-status/*.yaml}) and when a workload runs or completes. Pure. */
package dev.cartograph.simulator.status;
