package dev.cartograph.broker.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.coordinate.Hub;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.MetadataKeys;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the broker's marks on hub objects through the fabric8 client, in order, on one thread (labels and
 * annotations as one merge patch; finalizers and status read, then patched),
 * each write retried (resilience4j, exponential backoff for about half a minute) when the hub is
 * unavailable or the object changed under it. An object that is gone is not an error. At most
 * {@link #MAX_PENDING} writes wait; past that the oldest is dropped and counted — what the broker
 * marks is level-triggered (the hub watch resyncs and the coordinator writes again what an object
 * does not show), so a dropped or failed write heals. Thread-safe; never blocks the caller.
 */
public final class KubeHub implements Hub, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KubeHub.class);
    /** Kubernetes' Time (RFC 3339, seconds) and MicroTime (exactly six fraction digits; clients reject other lengths). */
    private static final java.time.format.DateTimeFormatter SECONDS = java.time.format.DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd'T'HH:mm:ss'Z'")
            .withZone(java.time.ZoneOffset.UTC);

    private static final java.time.format.DateTimeFormatter MICROS = java.time.format.DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);
    private final KubernetesClient client;
    private final HubWatch watch;
    static final int MAX_PENDING = 10_000;
    private final java.util.concurrent.atomic.AtomicLong dropped = new java.util.concurrent.atomic.AtomicLong();
    private final ExecutorService writer = new java.util.concurrent.ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new java.util.concurrent.LinkedBlockingQueue<>(MAX_PENDING),
            r -> new Thread(r, "hub-writer"),
            (task, pool) -> {
                if (!pool.isShutdown()) {
                    pool.getQueue().poll();
                    if (dropped.incrementAndGet() % 1000 == 1) {
                        LOG.warn(
                                "hub writes are {} behind; dropping the oldest (dropped so far: {}); they are written again on resync",
                                MAX_PENDING,
                                dropped.get());
                    }
                    pool.execute(task);
                }
            });
    private final Retry retry = Retry.of(
            "hub",
            RetryConfig.custom()
                    .maxAttempts(8)
                    .intervalFunction(io.github.resilience4j.core.IntervalFunction.ofExponentialBackoff(
                            Duration.ofMillis(200), 2.0, Duration.ofSeconds(10)))
                    .retryOnException(e -> !(e instanceof Deposed)
                            && !(e instanceof KubernetesClientException k
                                    && (k.getCode() == 404 || k.getCode() == 403 || k.getCode() == 422)))
                    .build());

    private final java.time.Clock clock;
    /** The term the broker acts in now (-1: it does not act); null: every write is made (no leadership to check). */
    private volatile java.util.function.LongSupplier actingTerm;

    private final java.util.concurrent.atomic.AtomicLong deposed = new java.util.concurrent.atomic.AtomicLong();

    /** A write queued in a term the broker no longer acts in: dropped, never retried. */
    private static final class Deposed extends RuntimeException {
        Deposed() {
            super(null, null, false, false);
        }
    }

    /** @param clock the broker's one clock: the time Events carry */
    KubeHub(KubernetesClient client, HubWatch watch, java.time.Clock clock) {
        this.client = client;
        this.watch = watch;
        this.clock = clock;
    }

    @Override
    public void addFinalizer(JsonNode object) {
        edit(object, "add finalizer", o -> {
            List<String> f = new ArrayList<>(
                    Optional.ofNullable(o.getMetadata().getFinalizers()).orElse(List.of()));
            if (!f.contains(MetadataKeys.FINALIZER) && o.getMetadata().getDeletionTimestamp() == null) {
                f.add(MetadataKeys.FINALIZER);
            }
            o.getMetadata().setFinalizers(f);
            return o;
        });
    }

    @Override
    public void removeFinalizer(JsonNode object) {
        edit(object, "remove finalizer", o -> {
            List<String> f = new ArrayList<>(
                    Optional.ofNullable(o.getMetadata().getFinalizers()).orElse(List.of()));
            f.remove(MetadataKeys.FINALIZER);
            o.getMetadata().setFinalizers(f);
            return o;
        });
    }

    /**
     * One request: a JSON merge patch (RFC 7386) of the labels and annotations alone (an empty value removes one), so
     * nothing else of the object is read or written and no other writer's change can conflict with it.
     */
    @Override
    public void mark(JsonNode object, Map<String, String> labels, Map<String, String> annotations) {
        com.fasterxml.jackson.databind.node.ObjectNode patch = Documents.json().createObjectNode();
        com.fasterxml.jackson.databind.node.ObjectNode metadata = patch.putObject("metadata");
        if (!labels.isEmpty()) {
            com.fasterxml.jackson.databind.node.ObjectNode l = metadata.putObject("labels");
            labels.forEach((k, v) -> {
                if (v.isEmpty()) {
                    l.putNull(k);
                } else {
                    l.put(k, labelValue(v));
                }
            });
        }
        if (!annotations.isEmpty()) {
            com.fasterxml.jackson.databind.node.ObjectNode a = metadata.putObject("annotations");
            annotations.forEach((k, v) -> {
                if (v.isEmpty()) {
                    a.putNull(k);
                } else {
                    a.put(k, v);
                }
            });
        }
        String body = patch.toString();
        submit(
                object,
                "mark",
                () -> resource(object)
                        .ifPresent(r -> r.patch(
                                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                                body)));
    }

    /** Label values are at most 63 characters of [A-Za-z0-9._-]. */
    static String labelValue(String v) {
        String clean = v.replaceAll("[^A-Za-z0-9._-]", "-");
        return clean.length() > 63 ? clean.substring(0, 63) : clean;
    }

    @Override
    public void status(JsonNode object, JsonNode status) {
        Object value = Documents.json().convertValue(status, Object.class);
        submit(
                object,
                "mirror status",
                () -> resource(object)
                        .ifPresent(r -> r.editStatus(o -> {
                            o.setAdditionalProperty("status", value);
                            return o;
                        })));
    }

    @Override
    public void event(JsonNode object, String type, String reason, String message) {
        JsonNode m = object.path("metadata");
        String namespace = m.path("namespace").asText("default");
        String name = m.path("name").asText();
        Instant now = clock.instant();
        submit(
                object,
                "event " + reason,
                () -> client.v1()
                        .events()
                        .inNamespace(namespace)
                        .resource(new EventBuilder()
                                .withNewMetadata()
                                .withNamespace(namespace)
                                .withName(name + "."
                                        + UUID.randomUUID().toString().substring(0, 8))
                                .endMetadata()
                                .withNewInvolvedObject()
                                .withApiVersion(object.path("apiVersion").asText())
                                .withKind(object.path("kind").asText())
                                .withNamespace(namespace)
                                .withName(name)
                                .withUid(m.path("uid").asText())
                                .endInvolvedObject()
                                .withType(type)
                                .withReason(reason)
                                .withMessage(message.length() > 1000 ? message.substring(0, 1000) + "…" : message)
                                .withFirstTimestamp(SECONDS.format(now))
                                .withLastTimestamp(SECONDS.format(now))
                                .withCount(1)
                                .withEventTime(new MicroTime(MICROS.format(now)))
                                .withReportingComponent("cartograph-broker")
                                .withReportingInstance("cartograph-broker")
                                .withAction(reason)
                                .withNewSource("cartograph-broker", null)
                                .build())
                        .create());
    }

    private void edit(JsonNode object, String what, UnaryOperator<GenericKubernetesResource> change) {
        // edit reads the object itself; one that is gone answers 404, which submit() treats as done
        submit(object, what, () -> resource(object).ifPresent(r -> r.edit(change)));
    }

    private Optional<Resource<GenericKubernetesResource>> resource(JsonNode object) {
        Optional<ResourceDefinitionContext> ctx = watch.context(
                object.path("apiVersion").asText(), object.path("kind").asText());
        JsonNode m = object.path("metadata");
        return ctx.map(c -> client.genericKubernetesResources(c)
                .inNamespace(m.path("namespace").asText())
                .withName(m.path("name").asText()));
    }

    /**
     * From now on, a write is made only while the broker still acts in the term it was queued in (issue 34): a deposed
     * leader's queued statuses, marks, finalizers and Events are dropped, before each try, not sent after a newer
     * leader's. Call once, before the coordinator runs.
     */
    public void fenceBy(java.util.function.LongSupplier actingTerm) {
        this.actingTerm = actingTerm;
    }

    /** Writes dropped because they were queued in a term the broker no longer acts in. */
    public long deposedWrites() {
        return deposed.get();
    }

    private void submit(JsonNode object, String what, Runnable write) {
        String subject = object.path("kind").asText() + " "
                + object.path("metadata").path("namespace").asText() + "/"
                + object.path("metadata").path("name").asText();
        java.util.function.LongSupplier term = actingTerm;
        long queuedIn = term == null ? 0 : term.getAsLong();
        Runnable checked = term == null
                ? write
                : () -> {
                    if (term.getAsLong() != queuedIn || queuedIn < 0) {
                        throw new Deposed();
                    }
                    write.run();
                };
        writer.execute(() -> {
            try {
                Retry.decorateRunnable(retry, checked).run();
            } catch (Deposed e) {
                if (deposed.incrementAndGet() % 100 == 1) {
                    LOG.info(
                            "hub write '{}' on {} dropped: queued in term {}, which this broker no longer acts in"
                                    + " ({} dropped so far)",
                            what,
                            subject,
                            queuedIn,
                            deposed.get());
                }
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404) {
                    LOG.warn("hub write '{}' on {} failed: {}", what, subject, e.getMessage());
                }
            } catch (RuntimeException e) {
                LOG.warn("hub write '{}' on {} failed: {}", what, subject, e.toString());
            }
        });
    }

    /** Hub writes dropped because too many were waiting (they heal on resync). */
    public long dropped() {
        return dropped.get();
    }

    /** Waits until every write queued so far is done (tests and orderly shutdown). */
    public void drain(Duration timeout) throws InterruptedException {
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        writer.execute(done::countDown);
        done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            writer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
