/** What the kubelet does with a pod bound to its node before its containers run: wait for what it mounts and reads. Pure. */
package dev.cartograph.simulator.kubelet;
