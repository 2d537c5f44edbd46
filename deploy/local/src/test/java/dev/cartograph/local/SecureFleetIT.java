package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.agent.AgentRuntime;
import dev.cartograph.agent.AgentSettings;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.broker.BrokerRuntime;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.kafka.local.SecureClients;
import dev.cartograph.local.kube.MockClusters;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.kafka.KafkaAcls;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real broker and agent on a Kafka that authenticates and authorizes: TLS on every listener, the broker
 * a mutual-TLS identity, the agent of gpu-east a SCRAM user, each with only the ACLs {@link KafkaAcls} gives it
 * (operations.md lists the same). An ordinary gang is placed on gpu-east and created there. gpu-east's
 * credentials cannot speak for another cluster: an agent started with them under the name gpu-west cannot write
 * gpu-west's topics (it says why and stays down), and a summary claiming gpu-west written on gpu-east's own topic
 * is refused by the broker, which never lists gpu-west.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SecureFleetIT {
    static final String CLUSTER = "gpu-east"; // the only cluster with H100s (the example pins them)
    static final String IMPOSTOR = "gpu-west";
    static final String AGENT_USER = "agent-gpu-east";
    static final String BROKER_CN = "cartograph-broker";

    @TempDir
    Path dir;

    @Test
    void aGangRunsUnderLeastPrivilegeAndOneClustersCredentialsCannotSpeakForAnother() throws Exception {
        Definitions catalog = Catalog.load().definitions();
        FleetOptions options = FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(Duration.ofHours(1));
        Topics topics = new Topics(options.topicPrefix());
        KafkaAcls acls = new KafkaAcls(topics);
        MockClusters clusters = MockClusters.of(catalog);
        try (LocalKafka kafka = LocalKafka.startSecure(dir.resolve("kafka"));
                MockApiServer hub = clusters.startHub(0);
                MockApiServer east =
                        clusters.startMember(options.profile().cluster(CLUSTER).orElseThrow());
                MockApiServer west =
                        clusters.startMember(options.profile().cluster(IMPOSTOR).orElseThrow())) {
            SecureClients secure = kafka.secure();
            secure.createAcls(acls.broker("User:" + BROKER_CN));
            secure.createAcls(acls.agent(CLUSTER, "User:" + AGENT_USER));
            Map<String, String> agentKafka = secure.scram(AGENT_USER);
            try (AgentRuntime agent = agent(CLUSTER, options, agentKafka, east, catalog);
                    EmbeddedServer broker = broker(options, secure.tls(BROKER_CN), hub)) {
                BrokerRuntime runtime = broker.getApplicationContext().getBean(BrokerRuntime.class);
                Eventually.until(
                        Duration.ofSeconds(90),
                        () -> runtime.view().active()
                                && runtime.view().fleet().clusters().containsKey(CLUSTER),
                        () -> "broker leader hearing " + CLUSTER + " over SCRAM/TLS; agent " + agent.health());

                GenericKubernetesResource gang = RbacSufficiencyIT.submit(hub, "ml");
                Eventually.until(
                        Duration.ofSeconds(60),
                        () -> RbacSufficiencyIT.copy(east, "ml") != null
                                && CLUSTER.equals(
                                        RbacSufficiencyIT.labels(hub, gang).get(MetadataKeys.CLUSTER_LABEL)),
                        () -> "llama-finetune placed on and created in " + CLUSTER);

                // gpu-east's credentials under another cluster's name: no topic of gpu-west may be created or written
                try (AgentRuntime impostor = agent(IMPOSTOR, options, agentKafka, west, catalog)) {
                    Thread.sleep(options.heartbeat().multipliedBy(3).toMillis());
                    assertThat(impostor.healthy())
                            .as("the impostor: " + impostor.health())
                            .isFalse();
                    try (Admin admin = Admin.create(new HashMap<>(secure.admin()))) {
                        assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                                .as("no topic of " + IMPOSTOR + " was created with " + CLUSTER + "'s credentials")
                                .noneMatch(t -> t.startsWith(topics.agentPrefix(IMPOSTOR)))
                                .contains(topics.of(CLUSTER, Topics.AgentTopic.CLUSTER));
                    }
                    // and on its own topic, a summary claiming gpu-west is refused by the broker
                    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                            new HashMap<>(agentKafka), new StringSerializer(), new ByteArraySerializer())) {
                        ClusterRecord.Header forged = new ClusterRecord.Header(
                                IMPOSTOR,
                                Map.of(),
                                "forged",
                                new ClusterRecord.Stamp("i-1", 0),
                                1,
                                Instant.now(),
                                0,
                                0);
                        producer.send(new ProducerRecord<>(
                                        topics.of(CLUSTER, Topics.AgentTopic.CLUSTER),
                                        forged.key().kafkaKey(),
                                        Wire.encode(forged)))
                                .get(30, TimeUnit.SECONDS);
                    }
                    Eventually.until(
                            Duration.ofSeconds(30),
                            () -> runtime.view().poisonRecords() == 1,
                            () -> "the forged summary counted as poison: "
                                    + runtime.view().poisonRecords());
                    assertThat(runtime.view().fleet().clusters()).containsOnlyKeys(CLUSTER);
                    assertThat(west.client()
                                    .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                                    .inAnyNamespace()
                                    .list()
                                    .getItems())
                            .isEmpty();
                }
                assertThat(agent.healthy())
                        .as("gpu-east's own agent: " + agent.health())
                        .isTrue();
            }
        }
    }

    static AgentRuntime agent(
            String cluster,
            FleetOptions options,
            Map<String, String> kafka,
            MockApiServer member,
            Definitions catalog) {
        AgentSettings settings = new AgentSettings(
                        cluster,
                        options.profile().cluster(cluster).orElseThrow().labels(),
                        options.topicPrefix(),
                        kafka,
                        Duration.ofMillis(300),
                        options.heartbeat(),
                        Set.of(),
                        true,
                        LocalFleet.fencing(options))
                .withTopicSettings(TopicSettings.SINGLE_BROKER);
        AgentRuntime agent = new AgentRuntime(settings, new MemberCluster(member.client()), catalog, Clock.systemUTC());
        agent.start();
        return agent;
    }

    /** The broker service with Kafka client settings of its mutual-TLS identity, as an operator would set them. */
    static EmbeddedServer broker(FleetOptions options, Map<String, String> kafka, MockApiServer hub) throws Exception {
        Path kubeconfig = options.data().resolve("hub.kubeconfig");
        Files.createDirectories(options.data());
        hub.writeKubeconfig(kubeconfig, "ml");
        Path tokens = Files.writeString(options.data().resolve("broker-tokens.csv"), "test-admin-token,admin\n");
        Map<String, Object> props =
                new HashMap<>(BrokerProperties.of(options, kafka.get("bootstrap.servers"), kubeconfig, tokens));
        kafka.forEach((k, v) -> props.put("cartograph.broker.kafka." + k, v));
        return ApplicationContext.run(EmbeddedServer.class, props);
    }
}
