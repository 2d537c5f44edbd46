/** The pods a resolved workload should have, its gangs, and the Pod objects made for them. Pure. */
package dev.cartograph.simulator.pods;
