package dev.cartograph.broker.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.mock.fault.Fault;
import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.fault.RequestMatch;
import dev.cartograph.mock.server.MockApiServer;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The broker's leader election against an API server that answers as a real one does (409 on a write naming an old
 * resourceVersion; 503s and slow answers injected), with a 4 s lease, 2.5 s renew deadline and 0.25 s retry period
 * (shorter deadlines were missed now and then on a loaded 2-core machine: a leader that stalls past its deadline rightly
 * stops leading, which these tests do not expect of a healthy one).
 */
class LeaseElectionTest {
    private static final LeaseElection.Timing FAST =
            new LeaseElection.Timing(Duration.ofSeconds(4), Duration.ofMillis(2_500), Duration.ofMillis(250));
    private static final RequestMatch LEASE =
            RequestMatch.any().resource("coordination.k8s.io", "leases").name("broker");

    private final MockApiServer hub = MockApiServer.start();
    private final List<LeaseElection> elections = new ArrayList<>();

    LeaseElectionTest() {
        // the client's and the server's first requests are slow (class loading): not inside a leader's deadline
        hub.client().resources(Lease.class).inNamespace("default").list();
    }

    @AfterEach
    void close() {
        elections.forEach(LeaseElection::close);
        hub.close();
    }

    /** What one replica was told, in order. */
    private static final class Told {
        private final List<Long> terms = new ArrayList<>(); // -1 for "no longer leading"

        synchronized void leading(boolean now, long term) {
            terms.add(now ? term : -1);
        }

        synchronized boolean leads() {
            return !terms.isEmpty() && terms.get(terms.size() - 1) >= 0;
        }

        synchronized long term() {
            return terms.get(terms.size() - 1);
        }

        synchronized List<Long> all() {
            return List.copyOf(terms);
        }
    }

    private Told start(String identity) {
        LeaseElection e = new LeaseElection(hub.client(), "default", "broker", identity, FAST, System::nanoTime);
        elections.add(e);
        Told told = new Told();
        e.start(told::leading);
        return told;
    }

    @Test
    void oneOfTwoLeadsAndWhenItResignsTheOtherLeadsInANewerTerm() throws Exception {
        Told a = start("a");
        awaitTrue(a::leads, 5);
        Told b = start("b");
        long aTerm = a.term();

        elections.get(0).resign(); // returns at once: the coordinator's thread calls it
        awaitTrue(() -> !a.leads(), 1);
        awaitTrue(b::leads, 3); // the Lease was released: b takes it at its next look, not a lease later
        assertThat(b.term()).isGreaterThan(aTerm);
        long bTerm = b.term();

        elections.get(1).close(); // b releases the Lease as it stops: a, campaigning again, takes it
        awaitTrue(a::leads, 8);
        assertThat(a.term()).isGreaterThan(bTerm);
        assertThat(hub.client()
                        .resources(Lease.class)
                        .inNamespace("default")
                        .withName("broker")
                        .get()
                        .getSpec())
                .satisfies(s -> {
                    assertThat(s.getHolderIdentity()).isEqualTo("a");
                    assertThat(s.getLeaseTransitions()).isEqualTo((int) a.term());
                });
    }

    @Test
    void aWriteOfTheLeaseReadBeforeAnotherWroteItIsRefused() throws Exception {
        Told a = start("a");
        awaitTrue(a::leads, 5);
        Lease read = hub.client()
                .resources(Lease.class)
                .inNamespace("default")
                .withName("broker")
                .get();
        Lease stale = new LeaseBuilder(read).build();
        awaitTrue(
                () -> !hub.client()
                        .resources(Lease.class)
                        .inNamespace("default")
                        .withName("broker")
                        .get()
                        .getMetadata()
                        .getResourceVersion()
                        .equals(read.getMetadata().getResourceVersion()),
                3); // a renewed it since
        stale.getSpec().setHolderIdentity("b");
        assertThatThrownBy(() -> elections.get(0).write(stale))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void aLeaderWhoseRenewalsFailStopsByItsDeadlineAndLeadsAgainOnceTheyLand() throws Exception {
        Told a = start("a");
        awaitTrue(a::leads, 5);
        long before = a.term();
        hub.faults()
                .add(FaultRule.on(
                                RequestMatch.verbs("patch")
                                        .resource("coordination.k8s.io", "leases")
                                        .name("broker"),
                                Fault.serviceUnavailable("overloaded"))
                        .forDuration(Duration.ofSeconds(4)));
        long failing = System.nanoTime();
        awaitTrue(() -> !a.leads(), 4);
        assertThat(Duration.ofNanos(System.nanoTime() - failing)).isLessThan(Duration.ofMillis(4_000)); // < the lease
        awaitTrue(a::leads, 8); // fabric8's elector would never campaign again
        assertThat(a.term()).as("a newer term, after %s", a.all()).isGreaterThan(before);
    }

    @Test
    void aLeaderWhoseCallsHangStopsByItsDeadline() throws Exception {
        Told a = start("a");
        awaitTrue(a::leads, 5);
        hub.faults().add(FaultRule.on(LEASE, Fault.delay(Duration.ofSeconds(6))).forDuration(Duration.ofSeconds(1)));
        long hanging = System.nanoTime();
        awaitTrue(() -> !a.leads(), 4);
        assertThat(Duration.ofNanos(System.nanoTime() - hanging)).isLessThan(Duration.ofMillis(4_000)); // < the lease
    }

    @Test
    void aLeaseItsHolderKeepsRenewingIsNeverTakenHoweverOldItsRenewTimeReads() throws Exception {
        // the holder's clock runs an hour behind this replica's: fabric8's elector would take the Lease at once
        ZonedDateTime anHourAgo = ZonedDateTime.now(ZoneOffset.UTC).minusHours(1);
        hub.client()
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withNamespace("default")
                        .withName("broker")
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity("ghost")
                        .withLeaseDurationSeconds(5)
                        .withRenewTime(anHourAgo)
                        .withLeaseTransitions(7)
                        .endSpec()
                        .build())
                .create();
        AtomicBoolean renewing = new AtomicBoolean(true);
        Thread ghost = new Thread(() -> {
            for (int i = 1; renewing.get(); i++) {
                Lease l = hub.client()
                        .resources(Lease.class)
                        .inNamespace("default")
                        .withName("broker")
                        .get();
                l.getSpec().setRenewTime(anHourAgo.plusNanos(i * 1_000L));
                hub.client().resource(l).update();
                sleep(300);
            }
        });
        ghost.start();
        Told b = start("b");
        assertStays(() -> !b.leads(), 6); // past the 5 s the ghost's Lease lasts, from this replica's first look
        renewing.set(false);
        ghost.join();
        awaitTrue(b::leads, 8);
        assertThat(b.term()).isEqualTo(8);
    }

    private static void awaitTrue(BooleanSupplier condition, int seconds) {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within %d s", seconds).isLessThan(end);
            sleep(20);
        }
    }

    private static void assertStays(BooleanSupplier condition, int seconds) {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (System.nanoTime() < end) {
            assertThat(condition.getAsBoolean()).isTrue();
            sleep(20);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
