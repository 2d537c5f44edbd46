/** Gang-aware binding of pending pods to nodes by free capacity, selectors, taints and readiness. Pure. */
package dev.cartograph.simulator.schedule;
