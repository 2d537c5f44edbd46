/**
 * The local fleet's fabric8 adapter: starts the hub and member mock API servers with the CRDs, namespaces
 * and nodes a federation expects on them.
 */
package dev.cartograph.local.kube;
