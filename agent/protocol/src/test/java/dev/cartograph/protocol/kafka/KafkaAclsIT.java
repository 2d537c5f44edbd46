package dev.cartograph.protocol.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KafkaAcls} on a real Kafka that denies whatever no ACL allows (LocalKafka in secure mode):
 * each agent's credentials, SCRAM or a client certificate, reach its own topics and no other
 * cluster's; the broker's reach what the broker does. The clients are configured as the agents'
 * and the broker's are (idempotent {@link Producers}, the agent's static group member, the broker's
 * unassigned reader and transactional producer).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KafkaAclsIT {
    static final Topics TOPICS = new Topics("cartograph");
    static final KafkaAcls ACLS = new KafkaAcls(TOPICS);
    static final String BROKER = "User:cartograph-broker";

    @TempDir
    static Path tmp;

    static LocalKafka kafka;

    @BeforeAll
    static void start() {
        kafka = LocalKafka.startSecure(tmp.resolve("kafka"));
        kafka.createTopics(
                TOPICS.of("a", AgentTopic.CLUSTER),
                TOPICS.of("b", AgentTopic.CLUSTER),
                TOPICS.commands("a"),
                TOPICS.commands("b"),
                TOPICS.placements(),
                TOPICS.usage());
        List<AclBinding> all = new ArrayList<>();
        all.addAll(ACLS.agent("a", "User:agent-a")); // SCRAM
        all.addAll(ACLS.agent("b", "User:agent-b")); // client certificate CN=agent-b
        all.addAll(ACLS.broker(BROKER));
        kafka.secure().createAcls(all);
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    // ---- agent a, SCRAM-SHA-512 ----

    @Test
    void scramAgentWritesItsOwnTopicsAndCreatesMissingOnes() throws Exception {
        Map<String, String> a = kafka.secure().scram("agent-a");
        send(a, TOPICS.of("a", AgentTopic.CLUSTER));
        try (Admin admin = admin(a)) {
            admin.createTopics(List.of(new NewTopic(TOPICS.of("a", AgentTopic.WORKLOADS), 1, (short) 1)))
                    .all()
                    .get(10, TimeUnit.SECONDS);
        }
        send(a, TOPICS.of("a", AgentTopic.WORKLOADS));
    }

    @Test
    void scramAgentReadsItsOwnCommandsAsAStaticMemberOfItsGroup() throws Exception {
        send(kafka.clientSettings(), TOPICS.commands("a"));
        try (KafkaConsumer<String, byte[]> consumer =
                agentConsumer(kafka.secure().scram("agent-a"), "a")) {
            consumer.subscribe(List.of(TOPICS.commands("a")));
            assertThat(pollAtLeastOne(consumer)).isNotEmpty();
            consumer.commitSync(Duration.ofSeconds(10));
        }
    }

    @Test
    void scramAgentCannotWriteAnotherClustersTopics() {
        Map<String, String> a = kafka.secure().scram("agent-a");
        assertThatThrownBy(() -> send(a, TOPICS.of("b", AgentTopic.CLUSTER)))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        // nor the topics only the broker writes
        assertThatThrownBy(() -> send(a, TOPICS.commands("a"))).hasCauseInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(() -> send(a, TOPICS.placements())).hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void scramAgentCannotCreateAnotherClustersTopicsEvenOneSharingItsNamesStart() {
        try (Admin admin = admin(kafka.secure().scram("agent-a"))) {
            for (String topic :
                    List.of("cartograph.from.b.x", "cartograph.from.ab.cluster", "cartograph.commands.a2")) {
                assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
                                .all()
                                .get(10, TimeUnit.SECONDS))
                        .as(topic)
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
        }
    }

    @Test
    void scramAgentCannotReadAnotherClustersCommandsInItsOwnGroupOrInTheirs() {
        Map<String, String> a = kafka.secure().scram("agent-a");
        try (KafkaConsumer<String, byte[]> consumer = agentConsumer(a, "a")) {
            consumer.subscribe(List.of(TOPICS.commands("b")));
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(10)))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
        try (KafkaConsumer<String, byte[]> consumer = agentConsumer(a, "b")) {
            consumer.subscribe(List.of(TOPICS.commands("a")));
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(10)))
                    .isInstanceOf(GroupAuthorizationException.class);
        }
    }

    // ---- agent b, mutual TLS (certificate CN=agent-b) ----

    @Test
    void certificateAgentReachesItsOwnTopicsAndNoOtherClusters() throws Exception {
        Map<String, String> b = kafka.secure().tls("agent-b");
        send(b, TOPICS.of("b", AgentTopic.CLUSTER));
        send(kafka.clientSettings(), TOPICS.commands("b"));
        try (KafkaConsumer<String, byte[]> consumer = agentConsumer(b, "b")) {
            consumer.subscribe(List.of(TOPICS.commands("b")));
            assertThat(pollAtLeastOne(consumer)).isNotEmpty();
        }
        assertThatThrownBy(() -> send(b, TOPICS.of("a", AgentTopic.CLUSTER)))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        try (KafkaConsumer<String, byte[]> consumer = agentConsumer(b, "b")) {
            consumer.subscribe(List.of(TOPICS.commands("a")));
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(10)))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
    }

    // ---- the broker ----

    @Test
    void brokerDiscoversAndReadsEveryAgentsTopicsWithoutAGroup() throws Exception {
        send(kafka.clientSettings(), TOPICS.of("a", AgentTopic.CLUSTER));
        Map<String, String> broker = kafka.secure().scram("cartograph-broker");
        try (Admin admin = admin(broker)) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .contains(TOPICS.of("a", AgentTopic.CLUSTER), TOPICS.of("b", AgentTopic.CLUSTER));
        }
        Map<String, Object> config = new HashMap<>(broker);
        config.put("isolation.level", "read_committed");
        config.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(new TopicPartition(TOPICS.of("a", AgentTopic.CLUSTER), 0)));
            consumer.seekToBeginning(consumer.assignment());
            assertThat(pollAtLeastOne(consumer)).isNotEmpty();
        }
    }

    @Test
    void brokerCreatesAndChecksCommandTopicsAndWritesThemInItsPlacementTransaction() throws Exception {
        Map<String, String> broker = kafka.secure().scram("cartograph-broker");
        try (Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic(TOPICS.commands("c"), 1, (short) 1)))
                    .all()
                    .get(10, TimeUnit.SECONDS);
            // the durability check of existing topics (Topology) reads their configs
            ConfigResource commands = new ConfigResource(ConfigResource.Type.TOPIC, TOPICS.commands("c"));
            ConfigResource placements = new ConfigResource(ConfigResource.Type.TOPIC, TOPICS.placements());
            assertThat(admin.describeConfigs(List.of(commands, placements))
                            .all()
                            .get(10, TimeUnit.SECONDS))
                    .containsKeys(commands, placements);
        }
        Map<String, Object> config = Producers.durable(broker);
        config.put("transactional.id", ACLS.brokerTransactionalId());
        config.put("max.block.ms", 15_000);
        try (KafkaProducer<String, byte[]> producer = Producers.create(config)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(record(TOPICS.placements()));
            producer.send(record(TOPICS.commands("c")));
            producer.commitTransaction();
        }
        Map<String, Object> reader = new HashMap<>(broker);
        reader.put("isolation.level", "read_committed");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(reader, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(new TopicPartition(TOPICS.placements(), 0)));
            consumer.seekToBeginning(consumer.assignment());
            assertThat(pollAtLeastOne(consumer)).isNotEmpty();
        }
    }

    @Test
    void brokerCannotWriteAsAnAgentNorUseAnotherTransactionalId() {
        Map<String, String> broker = kafka.secure().scram("cartograph-broker");
        assertThatThrownBy(() -> send(broker, TOPICS.of("a", AgentTopic.CLUSTER)))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        Map<String, Object> config = Producers.durable(broker);
        config.put("transactional.id", "someone-else");
        config.put("max.block.ms", 15_000);
        try (KafkaProducer<String, byte[]> producer = Producers.create(config)) {
            assertThatThrownBy(producer::initTransactions).isInstanceOf(TransactionalIdAuthorizationException.class);
        }
    }

    // ---- nothing more than needed: each ACL is what one operation needs ----

    @Test
    void everyAgentAclIsNeededByWhatTheAgentDoes() throws Exception {
        kafka.createTopics(TOPICS.of("n", AgentTopic.CLUSTER), TOPICS.commands("n"));
        AtomicInteger fresh = new AtomicInteger();
        eachAclIsNeeded(
                principal -> ACLS.agent("n", principal),
                "agent-n",
                List.of(
                        new Need(
                                TOPIC_PREFIXED.apply("cartograph.from.n."),
                                AclOperation.WRITE,
                                s -> send(s, TOPICS.of("n", AgentTopic.CLUSTER))),
                        new Need(
                                TOPIC_PREFIXED.apply("cartograph.from.n."),
                                AclOperation.CREATE,
                                s -> create(s, "cartograph.from.n.new-" + fresh.incrementAndGet())),
                        new Need(TOPIC.apply(TOPICS.commands("n")), AclOperation.READ, s -> readInGroup(s, "n")),
                        new Need(
                                new ResourcePattern(ResourceType.GROUP, "cartograph-agent-n", PatternType.LITERAL),
                                AclOperation.READ,
                                s -> readInGroup(s, "n"))));
    }

    @Test
    void everyBrokerAclIsNeededByWhatTheBrokerDoes() throws Exception {
        send(kafka.clientSettings(), TOPICS.of("a", AgentTopic.CLUSTER));
        AtomicInteger fresh = new AtomicInteger();
        ResourcePattern commands = TOPIC_PREFIXED.apply(TOPICS.commandsPrefix());
        List<Need> needs = new ArrayList<>(List.of(
                new Need(
                        TOPIC_PREFIXED.apply(TOPICS.agentsPrefix()),
                        AclOperation.READ,
                        s -> readAssigned(s, TOPICS.of("a", AgentTopic.CLUSTER))),
                new Need(commands, AclOperation.WRITE, s -> send(s, TOPICS.commands("a"))),
                new Need(
                        commands,
                        AclOperation.CREATE,
                        s -> create(s, TOPICS.commands("new-" + fresh.incrementAndGet()))),
                new Need(commands, AclOperation.DESCRIBE_CONFIGS, s -> describeConfigs(s, TOPICS.commands("a"))),
                new Need(
                        new ResourcePattern(
                                ResourceType.TRANSACTIONAL_ID, ACLS.brokerTransactionalId(), PatternType.LITERAL),
                        AclOperation.WRITE,
                        s -> {
                            Map<String, Object> config = Producers.durable(s);
                            config.put("transactional.id", ACLS.brokerTransactionalId());
                            config.put("max.block.ms", 10_000);
                            try (KafkaProducer<String, byte[]> producer = Producers.create(config)) {
                                producer.initTransactions();
                            }
                        })));
        for (String topic : List.of(TOPICS.placements(), TOPICS.usage())) {
            needs.addAll(brokerTopicNeeds(topic));
        }
        eachAclIsNeeded(ACLS::broker, "broker", needs);
    }

    /** Read, write, create and describe the configs of a topic the broker owns ({@code P.placements}, {@code P.usage}). */
    static List<Need> brokerTopicNeeds(String topic) {
        ResourcePattern pattern = TOPIC.apply(topic);
        return List.of(
                new Need(pattern, AclOperation.READ, s -> readAssigned(s, topic)),
                new Need(pattern, AclOperation.WRITE, s -> send(s, topic)),
                // it exists: allowed to create it, Kafka says so; not allowed, it refuses first
                new Need(pattern, AclOperation.CREATE, s -> {
                    try {
                        create(s, topic);
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            throw e;
                        }
                    }
                }),
                new Need(pattern, AclOperation.DESCRIBE_CONFIGS, s -> describeConfigs(s, topic)));
    }

    /** What one ACL is for: an operation that needs it. */
    record Need(ResourcePattern pattern, AclOperation operation, Action action) {}

    interface Action {
        void run(Map<String, String> settings) throws Exception;
    }

    static final Function<String, ResourcePattern> TOPIC =
            name -> new ResourcePattern(ResourceType.TOPIC, name, PatternType.LITERAL);
    static final Function<String, ResourcePattern> TOPIC_PREFIXED =
            name -> new ResourcePattern(ResourceType.TOPIC, name, PatternType.PREFIXED);

    /**
     * One need per ACL of {@code aclsFor}; with all of them every action succeeds, and for each ACL a
     * principal with all the others is refused (an authorization error) the action that needs it.
     */
    static void eachAclIsNeeded(Function<String, List<AclBinding>> aclsFor, String user, List<Need> needs)
            throws Exception {
        List<AclBinding> template = aclsFor.apply("User:" + user + "-all");
        assertThat(needs)
                .extracting(n -> n.pattern() + " " + n.operation())
                .containsExactlyInAnyOrderElementsOf(template.stream()
                        .map(b -> b.pattern() + " " + b.entry().operation())
                        .toList());
        kafka.secure().createAcls(template);
        Map<String, String> all = kafka.secure().scram(user + "-all");
        for (Need need : needs) {
            need.action().run(all);
        }
        for (int i = 0; i < needs.size(); i++) {
            Need need = needs.get(i);
            String less = user + "-less-" + i;
            kafka.secure()
                    .createAcls(aclsFor.apply("User:" + less).stream()
                            .filter(b -> !(b.pattern().equals(need.pattern())
                                    && b.entry().operation() == need.operation()))
                            .toList());
            Map<String, String> settings = kafka.secure().scram(less);
            assertThatThrownBy(() -> need.action().run(settings))
                    .as("without %s on %s", need.operation(), need.pattern())
                    .satisfies(e -> assertThat(authorizationFailure(e))
                            .as("an authorization failure in " + e)
                            .isTrue());
        }
    }

    static boolean authorizationFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof AuthorizationException) {
                return true;
            }
        }
        return false;
    }

    static void create(Map<String, String> settings, String topic) throws Exception {
        try (Admin admin = admin(settings)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(10, TimeUnit.SECONDS);
        }
    }

    static void describeConfigs(Map<String, String> settings, String topic) throws Exception {
        try (Admin admin = admin(settings)) {
            admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, topic)))
                    .all()
                    .get(10, TimeUnit.SECONDS);
        }
    }

    /** A poll in the agent's group: refused at once without the ACLs, else returns (records or none). */
    static void readInGroup(Map<String, String> settings, String cluster) {
        try (KafkaConsumer<String, byte[]> consumer = agentConsumer(settings, cluster)) {
            consumer.subscribe(List.of(TOPICS.commands(cluster)));
            consumer.poll(Duration.ofSeconds(3));
        }
    }

    /** The broker's way: no group, manual assignment, from the start. */
    static void readAssigned(Map<String, String> settings, String topic) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put("isolation.level", "read_committed");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(consumer.assignment());
            consumer.poll(Duration.ofSeconds(3));
        }
    }

    // ---- helpers: clients configured as the agents' and the broker's are ----

    static void send(Map<String, String> settings, String topic) throws Exception {
        Map<String, Object> config = Producers.durable(settings);
        config.put("max.block.ms", 10_000);
        config.put("delivery.timeout.ms", 10_000);
        config.put("request.timeout.ms", 5_000);
        try (KafkaProducer<String, byte[]> producer = Producers.create(config)) {
            producer.send(record(topic)).get(15, TimeUnit.SECONDS);
        }
    }

    static ProducerRecord<String, byte[]> record(String topic) {
        return new ProducerRecord<>(topic, "k", "v".getBytes(StandardCharsets.UTF_8));
    }

    /** As agent/service CommandSource configures it: group and static member id cartograph-agent-CLUSTER. */
    static KafkaConsumer<String, byte[]> agentConsumer(Map<String, String> settings, String cluster) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put("group.id", KafkaAcls.agentGroup(cluster));
        config.put("group.instance.id", KafkaAcls.agentGroup(cluster));
        config.put("enable.auto.commit", false);
        config.put("isolation.level", "read_committed");
        config.put("allow.auto.create.topics", false);
        config.put("auto.offset.reset", "earliest");
        return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    static Admin admin(Map<String, String> settings) {
        return Admin.create(new HashMap<>(settings));
    }

    static List<ConsumerRecord<String, byte[]>> pollAtLeastOne(KafkaConsumer<String, byte[]> consumer) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (records.isEmpty() && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
        return records;
    }
}
