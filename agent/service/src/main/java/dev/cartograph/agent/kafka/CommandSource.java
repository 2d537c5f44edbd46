package dev.cartograph.agent.kafka;

import dev.cartograph.protocol.kafka.KafkaAcls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The command loop's view of its topic: one consumer, thrown away and opened anew by the loop after
 * any Kafka failure (so it resumes from the last committed offset). Every method but
 * {@link #wakeup()} is called from the loop's thread only.
 */
public interface CommandSource extends AutoCloseable {

    /** The topic read. */
    String topic();

    /** Whether the topic exists now; never creates it (the broker does). */
    boolean topicExists();

    void subscribe();

    List<ConsumerRecord<String, byte[]>> poll(Duration timeout);

    /** Commits the offset after {@code record}, synchronously. */
    void commit(ConsumerRecord<String, byte[]> record);

    /** Makes a blocking call in the loop's thread return at once (with Kafka's WakeupException). Any thread. */
    void wakeup();

    @Override
    void close();

    /**
     * A static member (instance id = group id) of {@code topic}'s group {@code cartograph-agent-CLUSTER}: no auto-commit, from the
     * earliest offset the first time, one record per poll (so {@code max.poll.interval.ms} bounds the handling of
     * one command, not of a batch), and it never auto-creates the topic.
     *
     * @param kafka the agent's Kafka client settings, passed through
     */
    static CommandSource kafka(Map<String, String> kafka, String topic, String cluster) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, KafkaAcls.agentGroup(cluster));
        // static membership: a restarted agent takes the partition over at once instead of waiting out the session
        // timeout of the incarnation it replaces (the fault suite measured 45-60 s of idle commands); a second live
        // agent for the cluster fences the first, whose loop then stops (CommandLoop)
        config.putIfAbsent(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, KafkaAcls.agentGroup(cluster));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // the broker writes commands in transactions: a deposed leader's aborted ones are never carried out
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        return new CommandSource() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public boolean topicExists() {
                return !consumer.partitionsFor(topic, Duration.ofSeconds(10)).isEmpty();
            }

            @Override
            public void subscribe() {
                consumer.subscribe(List.of(topic));
            }

            @Override
            public List<ConsumerRecord<String, byte[]>> poll(Duration timeout) {
                List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
                consumer.poll(timeout).forEach(out::add);
                return out;
            }

            @Override
            public void commit(ConsumerRecord<String, byte[]> r) {
                consumer.commitSync(
                        Map.of(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1)));
            }

            @Override
            public void wakeup() {
                consumer.wakeup();
            }

            @Override
            public void close() {
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
            }
        };
    }
}
