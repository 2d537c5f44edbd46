package dev.cartograph.simulator;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test and demo harness standing in for the scheduler, kubelet and workload controllers of one
 * simulated member cluster (typically a fabric8 CRUD mock, which runs none of them). Every pass
 * lists the selected workloads of the catalog kinds the member serves, creates the pods the
 * interpreter says they have, binds them to nodes where they fit (gangs all-or-nothing), runs and
 * finishes them, writes the status the kind's definition reads as Running or Completed, and
 * deletes the pods of deleted workloads. Not for real clusters. This class runs the passes; a pass over a
 * cluster reached through a fabric8 client comes from {@link dev.cartograph.simulator.kube.MemberSimulators}:
 *
 * <pre>{@code
 * try (MemberSimulator sim = MemberSimulators.start(client, Catalog.load().definitions(), SimulatorSettings.defaults())) {
 *     // apply workloads labelled app.kubernetes.io/managed-by=cartograph-agent; watch them run
 * }
 * }</pre>
 *
 * Thread-safe: passes are serialized, whether run by the background loop or by {@link #reconcileOnce()}.
 */
public final class MemberSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MemberSimulator.class);

    private final Runnable pass;
    private final SimulatorSettings settings;
    private ScheduledExecutorService loop;

    private MemberSimulator(Runnable pass, SimulatorSettings settings) {
        this.pass = pass;
        this.settings = settings;
    }

    /**
     * A simulator that runs {@code pass} (one whole pass over {@code settings.cluster()}) every
     * {@code settings.reconcileInterval()} until closed.
     */
    public static MemberSimulator start(Runnable pass, SimulatorSettings settings) {
        MemberSimulator sim = create(pass, settings);
        sim.startLoop();
        return sim;
    }

    /** A simulator that runs {@code pass} only when {@link #reconcileOnce()} is called: for deterministic tests. */
    public static MemberSimulator create(Runnable pass, SimulatorSettings settings) {
        return new MemberSimulator(pass, settings);
    }

    /** Runs one whole pass now. Exceptions talking to the API server propagate; the loop logs them and retries. */
    public synchronized void reconcileOnce() {
        pass.run();
    }

    private synchronized void startLoop() {
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "member-simulator-" + settings.cluster());
            t.setDaemon(true);
            return t;
        });
        long millis = settings.reconcileInterval().toMillis();
        loop.scheduleWithFixedDelay(this::safePass, 0, Math.max(1, millis), TimeUnit.MILLISECONDS);
    }

    private void safePass() {
        try {
            reconcileOnce();
        } catch (RuntimeException e) {
            LOG.warn(
                    "simulator pass on {} failed, retrying in {}: {}",
                    settings.cluster(),
                    settings.reconcileInterval(),
                    e.toString());
        }
    }

    /** Stops the loop (waits for a running pass to end). Pods and statuses written stay. */
    @Override
    public void close() {
        ScheduledExecutorService l;
        synchronized (this) {
            l = loop;
            loop = null;
        }
        if (l != null) {
            l.shutdownNow();
            try {
                l.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
