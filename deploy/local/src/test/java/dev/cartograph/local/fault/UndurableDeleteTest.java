package dev.cartograph.local.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.coordinate.Coordinator;
import dev.cartograph.broker.coordinate.Hub;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.broker.coordinate.Outbox;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found while reading the fault suite's one lost delete (docs/reliability.md, finding 2): the coordinator dropped
 * {@link Outbox#command}'s answer ("returns whether it is durable; one that is not is sent again when the agent does
 * not answer") in two places where nothing sent the Delete again, so a member copy could outlive its hub object. The
 * real coordinator through its public API, on its own thread; Kafka and the hub are lists here, and the outbox refuses
 * commands (as the Kafka producer does while a command topic's leader is down) when the test says so.
 */
@Timeout(60)
class UndurableDeleteTest {
    private static final Instant T0 = Instant.parse("2026-12-02T12:00:00Z");

    private volatile Instant now = T0;
    private volatile boolean commandsDurable = true;
    /** Commands asked for and hub writes, in order: {@code delete UID@CLUSTER durable=BOOL}, {@code unfinalize NAME}. */
    private final List<String> log = new CopyOnWriteArrayList<>();

    private final Coordinator coordinator = new Coordinator(
            new BrokerSettings(
                    "test",
                    "t",
                    Map.of(),
                    Duration.ofSeconds(30),
                    Duration.ofMinutes(5),
                    "cartograph.dev/federate=true",
                    Planner.Policy.BIN_PACK,
                    false,
                    "",
                    "",
                    Duration.ofSeconds(1)),
            Interpreter.of(Catalog.load().definitions()),
            outbox(),
            hub(),
            clock());
    private final Thread thread = new Thread(coordinator, "coordinator");

    @AfterEach
    void stop() throws InterruptedException {
        coordinator.close();
        thread.join(5_000);
    }

    @Test
    void aFencingDeleteThatWasNotDurableIsSentAgain() throws Exception {
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cluster("west", 1)),
                // every Job on the hub is known: a copy no placement and no hub object claims is a stray (issue 33)
                new Input.HubListed(java.util.Set.of("batch/Job")));
        commandsDurable = false; // the command topic's partition leader is down
        step(new Input.Workload(orphan(1, "Running").key(), Optional.of(orphan(1, "Running"))));
        assertThat(log).containsExactly("delete uid-orphan@west durable=false");

        commandsDurable = true;
        now = now.plusSeconds(31);
        step(
                new Input.Cluster(cluster("west", 2)),
                new Input.Workload(orphan(2, "Completed").key(), Optional.of(orphan(2, "Completed"))),
                new Input.Tick());
        assertThat(log)
                .as("a Delete for the orphan copy that reached Kafka")
                .contains("delete uid-orphan@west durable=true");
    }

    @Test
    void aDeletedObjectIsLetGoOnlyOnceTheDeleteOfItsCopyIsDurable() throws Exception {
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1)));
        step(new Input.HubChanged(job(false)));
        assertThat(coordinator.view().placements().get("uid-j"))
                .as("%s %s", coordinator.view().placements(), coordinator.view().queue())
                .extracting(PlacementRecord::state)
                .isEqualTo(PlacementRecord.State.PLACED);

        now = now.plusSeconds(31); // east has been silent past the heartbeat timeout: not ready
        commandsDurable = false;
        step(new Input.HubChanged(job(true)));
        commandsDurable = true;
        now = now.plusSeconds(31);
        step(new Input.Tick(), new Input.Tick());

        int unfinalized = log.indexOf("unfinalize j");
        int durable = log.indexOf("delete uid-j@east durable=true");
        assertThat(unfinalized < 0 || (durable >= 0 && durable < unfinalized))
                .as("the finalizer is removed only after the Delete of the copy is durable: %s", log)
                .isTrue();
    }

    /** Posts the inputs and returns once the coordinator has handled them and published its view. */
    private void step(Input... inputs) throws InterruptedException {
        if (!thread.isAlive()) {
            thread.start();
        }
        for (Input i : inputs) {
            coordinator.post(i);
        }
        handled();
        handled(); // a batch publishes its view after its last input: the next batch starts after that
    }

    private void handled() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        coordinator.post(new Input.Call(done::countDown));
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private Outbox outbox() {
        return new Outbox() {
            @Override
            public void placement(PlacementRecord record) {}

            @Override
            public void forget(String uid) {}

            @Override
            public boolean command(String cluster, Command command) {
                if (command instanceof Command.Delete) {
                    log.add("delete " + command.placementId() + "@" + cluster + " durable=" + commandsDurable);
                }
                return commandsDurable;
            }
        };
    }

    private Hub hub() {
        return new Hub() {
            @Override
            public void addFinalizer(JsonNode object) {}

            @Override
            public void removeFinalizer(JsonNode object) {
                log.add("unfinalize " + object.path("metadata").path("name").asText());
            }

            @Override
            public void mark(JsonNode object, Map<String, String> labels, Map<String, String> annotations) {}

            @Override
            public void status(JsonNode object, JsonNode status) {}

            @Override
            public void event(JsonNode object, String type, String reason, String message) {}
        };
    }

    private Clock clock() {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        };
    }

    /** One free 8-GPU node; its agent heard now. */
    private ClusterSummary cluster(String name, long sequence) {
        NodeState node = new NodeState(
                name + "-n0",
                Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"),
                List.of(),
                true,
                true,
                res("nvidia.com/gpu", 8, "cpu", 64, "pods", 110),
                res("nvidia.com/gpu", 0));
        return new ClusterSummary(name, Map.of(), "v", "inc-" + name, sequence, now, List.of(node), List.of());
    }

    /** A Job on west labelled with a placement the broker does not have (its hub object is gone). */
    private WorkloadSummary orphan(long sequence, String phase) {
        return new WorkloadSummary(
                new WorkloadKey("west", "ml", "batch", "Job", "orphan"),
                "batch/v1",
                "inc-west",
                sequence,
                now,
                Optional.of("uid-orphan"),
                phase,
                List.of(phase),
                1,
                res("nvidia.com/gpu", 1),
                1,
                List.of(),
                null);
    }

    /** A federated Job of one 1-GPU pod, with the broker's finalizer; deleting or not. */
    private JsonNode job(boolean deleting) {
        ObjectNode o = Documents.json()
                .createObjectNode()
                .put("apiVersion", "batch/v1")
                .put("kind", "Job");
        ObjectNode meta = o.putObject("metadata")
                .put("name", "j")
                .put("namespace", "ml")
                .put("uid", "uid-j")
                .put("creationTimestamp", T0.toString());
        meta.putObject("labels").put("cartograph.dev/federate", "true");
        meta.putArray("finalizers").add(MetadataKeys.FINALIZER);
        if (deleting) {
            meta.put("deletionTimestamp", now.toString());
        }
        o.putObject("spec")
                .putObject("template")
                .putObject("spec")
                .putArray("containers")
                .addObject()
                .put("name", "c")
                .put("image", "x")
                .putObject("resources")
                .putObject("requests")
                .put("nvidia.com/gpu", "1");
        return o;
    }

    private static ResourceList res(Object... kv) {
        TreeMap<String, BigDecimal> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], BigDecimal.valueOf(((Number) kv[i + 1]).longValue()));
        }
        return new ResourceList(m);
    }
}
