package dev.cartograph.broker.hub;

import dev.cartograph.broker.coordinate.LeaderElection;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a Lease on the hub, for as long as the broker runs (issue 34). It campaigns, leads, and when it
 * stops leading — a renewal not made within the renew deadline, the Lease found taken, or {@link #resign} — it
 * campaigns again; a replica never ends up neither leading nor trying to. Whether another's Lease has expired is judged
 * on this replica's monotonic clock ({@link Candidacy}); a leader stops leading once its last successful renewal,
 * timed from before it was sent, is older than the renew deadline — a watchdog thread sees to that even while a call
 * to the hub hangs — which is shorter than the lease a candidate waits out. Every write names the Lease's
 * resourceVersion, so of two replicas that both think they may take it, one gets 409 Conflict. The leader term is the
 * Lease's {@code leaseTransitions} as this replica wrote it.
 *
 * <p>Written here, not with fabric8's {@code LeaderElector}: that one runs once (after a lost renewal it never
 * campaigns again), compares the holder's {@code renewTime} with this machine's wall clock, and cannot be asked to give
 * the Lease up and campaign again. Start once, close once; thread-safe.
 */
final class LeaseElection implements LeaderElection {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseElection.class);
    /** How long a Lease lasts unrenewed, how soon its leader must renew it, how often anyone looks. */
    record Timing(Duration lease, Duration renewDeadline, Duration retry) {
        static final Timing DEFAULT = new Timing(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

        Timing {
            if (renewDeadline.compareTo(lease) >= 0 || retry.compareTo(renewDeadline) >= 0) {
                throw new IllegalArgumentException(
                        "need retry < renew deadline < lease: " + retry + ", " + renewDeadline + ", " + lease);
            }
        }
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final String identity;
    private final Timing timing;
    private final LongSupplier nanos;
    private final Candidacy candidacy;
    private final ScheduledExecutorService loop;
    private final ScheduledExecutorService watchdog;
    /**
     * Tells {@link Leading} of every gain and loss, in the order they happened (queued under this object's lock), on a
     * thread of its own: the coordinator's callback may block on a full inbox, and the coordinator's own thread calls
     * {@link #resign}, so neither the election's threads nor the caller may run it.
     */
    private final java.util.concurrent.ExecutorService notifier;

    private Leading leading;
    /** The term this replica leads in; -1 while it does not lead. Guarded by this. */
    private long term = -1;
    /** When the last renewal that succeeded was sent (monotonic). Guarded by this. */
    private long renewedAt;
    /** No campaigning before this monotonic time (after a resignation, so another replica takes the Lease first). */
    private volatile long holdOffUntil = Long.MIN_VALUE;

    private volatile boolean closed;

    LeaseElection(KubernetesClient client, String namespace, String name, String identity) {
        this(client, namespace, name, identity, Timing.DEFAULT, System::nanoTime);
    }

    LeaseElection(
            KubernetesClient client,
            String namespace,
            String name,
            String identity,
            Timing timing,
            LongSupplier nanos) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.identity = identity;
        this.timing = timing;
        this.nanos = nanos;
        this.candidacy = new Candidacy(identity);
        this.loop = Executors.newSingleThreadScheduledExecutor(daemon("broker-lease"));
        this.watchdog = Executors.newSingleThreadScheduledExecutor(daemon("broker-lease-deadline"));
        this.notifier = Executors.newSingleThreadExecutor(daemon("broker-lease-notify"));
    }

    @Override
    public synchronized void start(Leading leading) {
        if (this.leading != null) {
            throw new IllegalStateException("the election is started already");
        }
        this.leading = leading;
        loop.execute(this::step);
        long check = Math.max(50, timing.retry().toMillis() / 4);
        watchdog.scheduleWithFixedDelay(this::checkDeadline, check, check, TimeUnit.MILLISECONDS);
    }

    /**
     * Stops leading now and gives the Lease up, so that another replica takes it in a new term; this one campaigns
     * again after one lease duration (it takes the Lease back then if nobody else did). For a leader that cannot act
     * although it holds the Lease (its Kafka producer was fenced: a transaction timed out, or a newer writer took over).
     * Does nothing when this replica does not lead.
     */
    @Override
    public void resign() {
        long was;
        synchronized (this) {
            if (term < 0) {
                return;
            }
            was = term;
            holdOffUntil = nanos.getAsLong() + timing.lease().toNanos();
            stop("gave the Lease up");
        }
        loop.execute(() -> release(was));
    }

    /** One look at the Lease: renew it while leading, else campaign; then the next look after the retry period. */
    private void step() {
        if (closed) {
            return;
        }
        long delay = timing.retry().toMillis();
        try {
            long leadsIn;
            synchronized (this) {
                leadsIn = term;
            }
            if (leadsIn >= 0) {
                renew(leadsIn);
            } else {
                campaign();
                delay += ThreadLocalRandom.current().nextLong(delay / 5 + 1); // candidates spread out
            }
        } catch (RuntimeException e) {
            LOG.warn("leader Lease {}/{}: {}", namespace, name, e.toString());
        } finally {
            if (!closed) {
                loop.schedule(this::step, delay, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void renew(long leadsIn) {
        Lease lease = lease().get();
        if (lease == null || !identity.equals(holder(lease)) || transitions(lease) != leadsIn) {
            synchronized (this) {
                if (term == leadsIn) {
                    stop("the Lease was taken: " + describe(lease));
                }
            }
            return;
        }
        lease.getSpec().setRenewTime(now());
        long sent = nanos.getAsLong(); // others time the Lease from when they see this write: later than this
        write(lease); // names the resourceVersion read: 409 if anyone wrote since
        synchronized (this) {
            if (term == leadsIn) {
                renewedAt = Math.max(renewedAt, sent);
            }
        }
    }

    private void campaign() {
        long now = nanos.getAsLong();
        Lease lease = lease().get();
        Candidacy.Move move = candidacy.next(Optional.ofNullable(lease).map(LeaseElection::seen), now);
        if (now < holdOffUntil) {
            return; // it looks, so that it knows how long the Lease has stood when the hold-off ends, but takes nothing
        }
        long newTerm;
        long sent = nanos.getAsLong();
        switch (move) {
            case WAIT -> {
                return;
            }
            case CREATE -> {
                newTerm = 0;
                client.resource(new LeaseBuilder()
                                .withNewMetadata()
                                .withNamespace(namespace)
                                .withName(name)
                                .endMetadata()
                                .withNewSpec()
                                .withHolderIdentity(identity)
                                .withLeaseDurationSeconds((int) timing.lease().toSeconds())
                                .withAcquireTime(now())
                                .withRenewTime(now())
                                .withLeaseTransitions(0)
                                .endSpec()
                                .build())
                        .create();
            }
            case TAKE -> {
                newTerm = transitions(lease) + 1;
                lease.getSpec().setHolderIdentity(identity);
                lease.getSpec().setLeaseDurationSeconds((int) timing.lease().toSeconds());
                lease.getSpec().setAcquireTime(now());
                lease.getSpec().setRenewTime(now());
                lease.getSpec().setLeaseTransitions((int) newTerm);
                write(lease); // 409 when another replica took it first
            }
            default -> throw new IllegalStateException(move.toString());
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            term = newTerm;
            renewedAt = sent;
            candidacy.reset();
            LOG.info("took the leader Lease {}/{} as {} (term {})", namespace, name, identity, newTerm);
            notifier.execute(() -> leading.leading(true, newTerm));
        }
    }

    /** From the watchdog: a leader whose last renewal is older than the renew deadline stops leading. */
    private void checkDeadline() {
        synchronized (this) {
            if (term >= 0
                    && nanos.getAsLong() - renewedAt > timing.renewDeadline().toNanos()) {
                stop("no renewal within " + timing.renewDeadline().toSeconds() + " s");
            }
        }
    }

    /** Stops leading and tells so. Holding this. */
    private void stop(String why) {
        LOG.warn("no longer leading (term {}): {}{}", term, why, closed ? "" : "; campaigning again");
        term = -1;
        candidacy.reset();
        notifier.execute(() -> leading.leading(false, 0));
    }

    /** Gives the Lease up if this replica still holds it in {@code was}: a standby takes it at its next look. */
    private void release(long was) {
        try {
            Lease lease = lease().get();
            if (lease != null && identity.equals(holder(lease)) && transitions(lease) == was) {
                lease.getSpec().setHolderIdentity("");
                lease.getSpec().setLeaseDurationSeconds(1);
                write(lease);
                LOG.info("released the leader Lease {}/{} (term {})", namespace, name, was);
            }
        } catch (KubernetesClientException e) {
            LOG.warn("could not release the leader Lease {}/{}: {}; it expires", namespace, name, e.toString());
        }
    }

    /**
     * Writes {@code lease}'s spec as a JSON merge patch that names the resourceVersion it was read at: the API server
     * answers 409 Conflict when anyone wrote the Lease since (a precondition, as an update's would be). A patch, not an
     * update, because the broker's Role allows {@code get} and {@code patch} on its Lease (deploy/rbac/broker.yaml).
     */
    void write(Lease lease) {
        Lease patch = new LeaseBuilder()
                .withNewMetadata()
                .withResourceVersion(lease.getMetadata().getResourceVersion())
                .endMetadata()
                .withSpec(lease.getSpec())
                .build();
        lease().patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        client.getKubernetesSerialization().asJson(patch));
    }

    private Resource<Lease> lease() {
        return client.resources(Lease.class).inNamespace(namespace).withName(name);
    }

    private static Candidacy.Seen seen(Lease lease) {
        Integer seconds = lease.getSpec() == null ? null : lease.getSpec().getLeaseDurationSeconds();
        return new Candidacy.Seen(
                holder(lease),
                transitions(lease),
                lease.getMetadata().getResourceVersion(),
                Duration.ofSeconds(seconds == null || seconds <= 0 ? 15 : seconds));
    }

    private static String holder(Lease lease) {
        return lease.getSpec() == null
                ? ""
                : java.util.Objects.toString(lease.getSpec().getHolderIdentity(), "");
    }

    private static long transitions(Lease lease) {
        Integer t = lease.getSpec() == null ? null : lease.getSpec().getLeaseTransitions();
        return t == null ? 0 : t;
    }

    private static String describe(Lease lease) {
        return lease == null ? "gone" : "held by " + holder(lease) + " in term " + transitions(lease);
    }

    /** For people reading the Lease: nobody's clock decides anything from it. */
    private static ZonedDateTime now() {
        return ZonedDateTime.now(ZoneOffset.UTC);
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        long was;
        synchronized (this) {
            closed = true;
            was = term;
            if (term >= 0) {
                stop("shutting down");
            }
        }
        watchdog.shutdownNow();
        loop.shutdownNow();
        notifier.shutdown(); // what is queued is still told
        if (was >= 0) {
            release(was); // on the caller's thread: the loop is gone
        }
    }
}
