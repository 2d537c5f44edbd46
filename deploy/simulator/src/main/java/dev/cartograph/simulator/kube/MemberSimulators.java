package dev.cartograph.simulator.kube;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.simulator.MemberSimulator;
import dev.cartograph.simulator.SimulatorSettings;
import dev.cartograph.simulator.status.StatusLibrary;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The simulator of a member cluster reached through a fabric8 client (typically a CRUD mock): each pass is a
 * {@link Reconciler} pass over the workloads of {@code definitions}' kinds. Thread-safe (see
 * {@link MemberSimulator}).
 */
public final class MemberSimulators {
    private MemberSimulators() {}

    /** A simulator that runs a pass every {@code settings.reconcileInterval()} until closed. */
    public static MemberSimulator start(KubernetesClient client, Definitions definitions, SimulatorSettings settings) {
        return MemberSimulator.start(reconciler(client, definitions, settings)::reconcileOnce, settings);
    }

    /** A simulator that runs passes only when {@link MemberSimulator#reconcileOnce()} is called: for deterministic tests. */
    public static MemberSimulator create(KubernetesClient client, Definitions definitions, SimulatorSettings settings) {
        return MemberSimulator.create(reconciler(client, definitions, settings)::reconcileOnce, settings);
    }

    private static Reconciler reconciler(KubernetesClient client, Definitions definitions, SimulatorSettings settings) {
        return new Reconciler(
                client,
                Interpreter.of(definitions),
                StatusLibrary.builtIn(),
                settings.cluster(),
                settings.workloadSelector(),
                settings.batchRunTime(),
                settings.clock());
    }
}
