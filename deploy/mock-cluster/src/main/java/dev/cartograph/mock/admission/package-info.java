/**
 * Admission denials a simulated member answers as a real API server with a validating webhook does: rules by kind and
 * namespace, and the 403 {@code Status} of a denial. Pure.
 */
package dev.cartograph.mock.admission;
