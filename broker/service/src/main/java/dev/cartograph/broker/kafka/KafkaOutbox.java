package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Outbox;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.kafka.KafkaAcls;
import dev.cartograph.protocol.kafka.Producers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's producer: transactional, with one transactional id shared by every broker instance
 * of a deployment ({@code <prefix>-broker}). A new leader's {@link #activate} initializes it, which
 * makes Kafka fence the previous leader's producer: whatever a deposed leader still sends — a
 * placement, a command — fails, and agents and brokers read with {@code read_committed}, so they never
 * see it. The coordinator's batch of writes — placement records, tombstones and the commands they lead to — is one
 * transaction ({@link #write}), committed before the call returns (durable, acks=all): an agent sees a command only
 * once the record that decided it is committed with it. Every command it writes is stamped with the leader term it
 * was activated for ({@link Command#withTerm}): agents order a placement's commands by it (docs/protocol.md).
 * Not thread-safe: the coordinator's thread only.
 */
public final class KafkaOutbox implements Outbox, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaOutbox.class);
    /** Kafka's default {@code max.request.size}: 1 MiB. */
    static final int DEFAULT_MAX_REQUEST_SIZE = 1024 * 1024;

    private final Map<String, Object> config;
    private final Topics topics;
    private final Consumer<String> ensureCommandTopic;
    private KafkaProducer<String, byte[]> producer;
    /**
     * Why the producer was dropped since the last activation, when it was (fenced, or its transaction could not be
     * aborted): every later write is refused with it (not only the first), until the next activation.
     */
    private String fenced;
    /** The leader term of the last activation: every command written is stamped with it. */
    private long term;
    /** The largest record the producer sends ({@code max.request.size}): a larger one is refused before it is sent. */
    private final int maxRecordBytes;
    /**
     * Commands encoded by {@link #tooLarge}, by identity, so the write that follows does not encode them again; emptied
     * by every write (a command of an undone batch is never written).
     */
    private final Map<Command, byte[]> encoded = new java.util.IdentityHashMap<>();

    /** @param ensureCommandTopic creates a member's command topic when missing (idempotent, cheap when it exists) */
    public KafkaOutbox(Map<String, String> kafka, Topics topics, Consumer<String> ensureCommandTopic) {
        Map<String, Object> c = Producers.durable(kafka);
        c.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(topics));
        c.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 15_000);
        c.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
        c.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        this.config = c;
        this.maxRecordBytes = Integer.parseInt(
                String.valueOf(c.getOrDefault(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, DEFAULT_MAX_REQUEST_SIZE)));
        this.topics = topics;
        this.ensureCommandTopic = ensureCommandTopic;
    }

    /** One id per deployment (topic prefix): the id Kafka fences by. */
    static String transactionalId(Topics topics) {
        return new KafkaAcls(topics).brokerTransactionalId(); // the one the ACLs allow
    }

    @Override
    public void activate(long term) throws Exception {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
        KafkaProducer<String, byte[]> fresh = Producers.create(config);
        try {
            fresh.initTransactions(); // fences every earlier producer with this id, aborting what it left open
        } catch (RuntimeException e) {
            fresh.close(Duration.ofSeconds(1));
            throw e;
        }
        producer = fresh;
        fenced = null;
        this.term = term;
        encoded.clear(); // encoded under the term before
        LOG.info("producer {} active for leader term {}", config.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG), term);
    }

    @Override
    public void write(List<Write> writes) throws Exception {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(writes.size());
        java.util.Set<String> clusters = new java.util.HashSet<>();
        for (Write w : writes) {
            if (w instanceof Write.Placement p) {
                records.add(new ProducerRecord<>(topics.placements(), p.record().uid(), Wire.encode(p.record())));
            } else if (w instanceof Write.Tombstone t) {
                records.add(new ProducerRecord<>(topics.placements(), t.uid(), null));
            } else if (w instanceof Write.ToCluster c) {
                if (clusters.add(c.cluster())) {
                    ensureCommandTopic.accept(c.cluster());
                }
                records.add(new ProducerRecord<>(
                        topics.commands(c.cluster()), c.command().placementId(), bytes(c.command())));
            }
        }
        encoded.clear();
        send(records);
    }

    /**
     * A command is too large when its record, as the producer sizes it (key, value and record overhead, before
     * compression), is over {@code max.request.size}: the producer would refuse it alone, and Kafka's transaction
     * would still commit the rest.
     */
    @Override
    public java.util.Optional<String> tooLarge(Command command) {
        byte[] value = bytes(command);
        encoded.put(command, value);
        int size = AbstractRecords.estimateSizeInBytesUpperBound(
                RecordBatch.CURRENT_MAGIC_VALUE,
                CompressionType.NONE,
                command.placementId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                value,
                Record.EMPTY_HEADERS);
        if (size <= maxRecordBytes) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(String.format(
                "as a command it is %,d bytes (the object with the ConfigMaps, Secrets and other objects it needs);"
                        + " Kafka takes records of at most %,d bytes (the broker's max.request.size); make what it"
                        + " mounts smaller, or put it on the members another way",
                size, maxRecordBytes));
    }

    /** The command as written now: stamped with this outbox's leader term. */
    private byte[] bytes(Command command) {
        byte[] done = encoded.get(command);
        return done != null ? done : Wire.encode(command.withTerm(term));
    }

    @Override
    public void placement(PlacementRecord record) throws Exception {
        send(new ProducerRecord<>(topics.placements(), record.uid(), Wire.encode(record)));
    }

    @Override
    public void placements(java.util.List<PlacementRecord> records) throws Exception {
        send(records.stream()
                .map(r -> new ProducerRecord<>(topics.placements(), r.uid(), Wire.encode(r)))
                .toList());
    }

    @Override
    public void forget(String uid) throws Exception {
        send(new ProducerRecord<>(topics.placements(), uid, null));
    }

    @Override
    public boolean command(String cluster, Command command) {
        try {
            ensureCommandTopic.accept(cluster);
            send(new ProducerRecord<>(topics.commands(cluster), command.placementId(), bytes(command)));
            encoded.remove(command);
            return true;
        } catch (Fenced e) {
            LOG.warn(
                    "not sent: {} for {} to {}: {}",
                    command.getClass().getSimpleName(),
                    command.placementId(),
                    cluster,
                    e.getMessage());
        } catch (Exception e) {
            // not durable: the coordinator sends it again when the agent does not answer
            LOG.error(
                    "could not send {} for {} to {}: {}",
                    command.getClass().getSimpleName(),
                    command.placementId(),
                    cluster,
                    e.toString());
        }
        return false;
    }

    /**
     * Writes {@code P.usage} records (hour → running totals; a null value removes the hour) in one transaction, so a
     * deposed leader's usage is refused like its placements.
     */
    public void usage(Map<String, byte[]> hours) throws Exception {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        hours.forEach((key, value) -> records.add(new ProducerRecord<>(topics.usage(), key, value)));
        send(records);
    }

    private void send(ProducerRecord<String, byte[]> record) throws Exception {
        send(List.of(record));
    }

    /** Sends the records in one transaction: all of them count, or none. */
    private void send(List<ProducerRecord<String, byte[]>> records) throws Exception {
        if (producer == null) {
            if (fenced != null) {
                throw new Fenced(fenced, null);
            }
            throw new IllegalStateException("the outbox is not active (this instance has not taken the lead)");
        }
        try {
            producer.beginTransaction();
            List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
            records.forEach(r -> sent.add(producer.send(r)));
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                refused(f); // a record the producer refused alone (too large): the transaction must not commit without
                // it
            }
            producer.commitTransaction();
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            // a newer leader initialized the transactional id, or Kafka aborted a transaction that outlived its
            // timeout and bumped the epoch: either way this producer is done, and only a new activation makes another
            throw drop(
                    "this broker's producer was fenced (a newer leader took over, or Kafka aborted a transaction"
                            + " that outlived its timeout): " + e.getMessage(),
                    e);
        } catch (KafkaException e) {
            try {
                producer.abortTransaction();
            } catch (KafkaException again) {
                throw drop("a failed transaction could not be aborted (" + again + "); the producer is dropped", e);
            }
            throw e;
        }
    }

    /** Drops the producer: every write is refused as {@link Fenced} with {@code why} until the next activation. */
    private Fenced drop(String why, KafkaException cause) {
        producer.close(Duration.ZERO);
        producer = null;
        fenced = why;
        return new Fenced(why, cause);
    }

    /** Throws what the producer refused a record with, if it did; the send is complete (flushed). */
    private static void refused(Future<RecordMetadata> f) {
        try {
            f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof KafkaException k
                    ? k
                    : new KafkaException("a record of the transaction was not written", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while a transaction was written", e);
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
