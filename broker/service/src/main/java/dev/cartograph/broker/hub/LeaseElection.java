package dev.cartograph.broker.hub;

import dev.cartograph.broker.coordinate.LeaderElection;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a Lease on the hub, with fabric8's LeaderElector: the lease lasts 15 s, is renewed
 * within 10 s, tried for every 2 s, and released on close. The leader term is the Lease's transitions.
 * Start once, close once (from one thread); the callbacks run on fabric8's elector thread.
 */
final class LeaseElection implements LeaderElection {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseElection.class);

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final String identity;
    private CompletableFuture<?> election;

    LeaseElection(KubernetesClient client, String namespace, String name, String identity) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.identity = identity;
    }

    @Override
    public void start(Leading leading) {
        election = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(name)
                        .withLock(new LeaseLock(namespace, name, identity))
                        .withLeaseDuration(Duration.ofSeconds(15))
                        .withRenewDeadline(Duration.ofSeconds(10))
                        .withRetryPeriod(Duration.ofSeconds(2))
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> leading.leading(true, term()),
                                () -> leading.leading(false, 0),
                                leader -> LOG.info("broker leader is {}", leader)))
                        .build())
                .build()
                .start();
    }

    /** The leader term: how often the Lease changed hands, read just after taking it. */
    private long term() {
        try {
            Lease lease = client.resources(Lease.class)
                    .inNamespace(namespace)
                    .withName(name)
                    .get();
            Integer transitions = lease == null || lease.getSpec() == null
                    ? null
                    : lease.getSpec().getLeaseTransitions();
            return transitions == null ? 0 : transitions;
        } catch (RuntimeException e) {
            LOG.warn("cannot read the Lease's transitions for the leader term: {}", e.toString());
            return 0;
        }
    }

    @Override
    public void close() {
        if (election != null) {
            election.cancel(true);
        }
    }
}
