package dev.cartograph.agent.kafka;

import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.Wire;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads this cluster's command topic on its own thread and hands each command to {@code handle};
 * the offset is committed only after the result is durable on the event stream (at-least-once,
 * made safe by idempotent apply). A record that cannot be decoded is counted, logged once with its
 * offset, and skipped. Thread-safe to start and stop from another thread.
 */
public final class CommandLoop implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommandLoop.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final String topic;
    private final String cluster;
    private final Function<Command, CommandResult> handle;
    private final Publisher publisher;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong poison = new AtomicLong();
    private final AtomicLong handled = new AtomicLong();

    public CommandLoop(Map<String, String> kafka, String topic, String cluster, Function<Command, CommandResult> handle,
                       Publisher publisher) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "cartograph-agent-" + cluster);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.topic = topic;
        this.cluster = cluster;
        this.handle = handle;
        this.publisher = publisher;
    }

    public long poisonRecords() {
        return poison.get();
    }

    public long handledCommands() {
        return handled.get();
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(topic));
            while (running.get()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    process(r);
                    consumer.commitSync(Map.of(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1)));
                }
            }
        } catch (WakeupException e) {
            if (running.get()) {
                throw e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.error("command loop for {} stopped: {}", cluster, e.toString());
        } finally {
            consumer.close();
        }
    }

    private void process(ConsumerRecord<String, byte[]> r) throws Exception {
        Decoded<Command> decoded = Wire.decodeCommand(r.value());
        if (decoded instanceof Decoded.Failed<Command> failed) {
            long n = poison.incrementAndGet();
            LOG.warn("skipping undecodable command at {}-{} offset {} ({} so far): {}", r.topic(), r.partition(), r.offset(), n,
                    failed.reason());
            return;
        }
        Command command = ((Decoded.Ok<Command>) decoded).value();
        publisher.resultDurably(handle.apply(command));
        handled.incrementAndGet();
    }

    @Override
    public void close() {
        running.set(false);
        consumer.wakeup();
    }
}
