package dev.cartograph.agent;

import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.ClusterAssembly;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (its name keeps it out of the test runs): a 5,000-node / 50,000-pod
 * cluster built in the fabric8 mock server, summarized by a real agent through a real Kafka
 * broker. Reports the bytes of the first full publication (one record per node), time to the first full summary and the agent's heap.
 * Run: {@code mvn -B -q -ntp -pl agent/service -am test -Dtest=AgentScaleBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 */
class AgentScaleBenchmark {
    static final int NODES = Integer.getInteger("nodes", 5000);
    static final int PODS = Integer.getInteger("pods", 50_000);
    /** {@code -Dhistogram=N}: also print the N classes with the most live bytes (for finding what to trim). */
    static final int HISTOGRAM = Integer.getInteger("histogram", 0);

    @Test
    void fiveThousandNodesFiftyThousandPods() throws Exception {
        KubernetesCrudDispatcher store = new KubernetesCrudDispatcher();
        KubernetesMockServer server =
                new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), store, false);
        server.init();
        try (KubernetesClient client = server.createClient()) {
            run(store, client);
        } finally {
            server.destroy();
        }
    }

    private void run(KubernetesCrudDispatcher store, KubernetesClient client) throws Exception {
        long t0 = System.nanoTime();
        MockStore mock = new MockStore(store, client.getKubernetesSerialization());
        String[] zones = {"a", "b", "c", "d"};
        for (int i = 0; i < NODES; i++) {
            mock.create(
                    "/api/v1/nodes",
                    new NodeBuilder()
                            .withNewMetadata()
                            .withName("node-" + i)
                            .addToLabels(Map.of(
                                    "kubernetes.io/hostname",
                                    "node-" + i,
                                    "nvidia.com/gpu.product",
                                    "NVIDIA-H100-80GB-HBM3",
                                    "nvidia.com/gpu.count",
                                    "8",
                                    "topology.kubernetes.io/zone",
                                    zones[i % 4]))
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable(Map.of(
                                    "cpu",
                                    new Quantity("192"),
                                    "memory",
                                    new Quantity("2Ti"),
                                    "nvidia.com/gpu",
                                    new Quantity("8"),
                                    "pods",
                                    new Quantity("110")))
                            .addNewCondition()
                            .withType("Ready")
                            .withStatus("True")
                            .endCondition()
                            .endStatus()
                            .build());
        }
        for (int p = 0; p < PODS; p++) {
            String namespace = "ns-" + (p % 50);
            mock.create(
                    "/api/v1/namespaces/" + namespace + "/pods",
                    new PodBuilder()
                            .withNewMetadata()
                            .withName("pod-" + p)
                            .withNamespace(namespace)
                            .addToLabels("app", "bench-" + (p % 500))
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("node-" + (p % NODES))
                            .addNewContainer()
                            .withName("c")
                            .withImage("x")
                            .withNewResources()
                            .addToRequests(Map.of("cpu", new Quantity("2"), "memory", new Quantity("16Gi")))
                            .addToLimits("nvidia.com/gpu", new Quantity(p % 10 == 0 ? "1" : "0"))
                            .endResources()
                            .endContainer()
                            .endSpec()
                            .withNewStatus()
                            .withPhase("Running")
                            .endStatus()
                            .build());
        }
        System.out.printf(
                "built %d nodes and %d pods in the mock server in %.1f s%n",
                NODES, PODS, (System.nanoTime() - t0) / 1e9);

        var memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long heapBefore = memory.getHeapMemoryUsage().getUsed();
        try (LocalKafka kafka = LocalKafka.start(Files.createTempDirectory("bench-kafka"))) {
            Topics topics = new Topics("bench");
            kafka.createTopics(
                    topics.of("bench", Topics.AgentTopic.CLUSTER),
                    topics.of("bench", Topics.AgentTopic.WORKLOADS),
                    topics.of("bench", Topics.AgentTopic.EVENTS),
                    topics.commands("bench"));
            System.gc();
            long heapWithKafka = memory.getHeapMemoryUsage().getUsed();
            AgentSettings settings = new AgentSettings(
                            "bench",
                            Map.of(),
                            "bench",
                            Map.of("bootstrap.servers", kafka.bootstrapServers(), "max.request.size", "1048576"),
                            Duration.ofSeconds(1),
                            Duration.ofSeconds(5),
                            Set.of(),
                            false)
                    .withTopicSettings(TopicSettings.SINGLE_BROKER);
            long start = System.nanoTime();
            try (AgentRuntime agent = new AgentRuntime(
                            settings, new MemberCluster(client), Catalog.load().definitions(), Clock.systemUTC());
                    KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                            Map.of(
                                    "bootstrap.servers",
                                    kafka.bootstrapServers(),
                                    "group.id",
                                    "bench",
                                    "auto.offset.reset",
                                    "earliest",
                                    "max.partition.fetch.bytes",
                                    "4194304"),
                            new StringDeserializer(),
                            new ByteArrayDeserializer())) {
                agent.start();
                long informersSynced = System.nanoTime();
                consumer.subscribe(List.of(topics.of("bench", Topics.AgentTopic.CLUSTER)));
                ClusterSummary full = null;
                long size = 0; // every record up to the first header of a full summary
                ClusterAssembly assembly = new ClusterAssembly("bench");
                while (full == null && System.nanoTime() - start < TimeUnit.MINUTES.toNanos(5)) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        if (full != null) {
                            break;
                        }
                        size += r.value() == null ? 0 : r.value().length;
                        if (Wire.decodeCluster(r.key(), r.value()) instanceof Decoded.Ok<ClusterRecord> ok) {
                            assembly.apply(ok.value());
                            full = assembly.take()
                                    .map(ClusterAssembly.Summary::summary)
                                    .filter(s -> s.nodes().size() == NODES)
                                    .orElse(null);
                        }
                    }
                }
                long firstSummary = System.nanoTime();
                System.gc();
                long heapAfter = memory.getHeapMemoryUsage().getUsed();
                long gpus = full == null
                        ? -1
                        : full.nodes().stream()
                                .mapToLong(n -> n.allocated().gpus())
                                .sum();
                System.out.printf(
                        "informers synced in %.1f s; first full summary after %.1f s%n",
                        (informersSynced - start) / 1e9, (firstSummary - start) / 1e9);
                System.out.printf(
                        "first full publication: %,d bytes of records for %d nodes (one per node, header last); allocated GPUs %d (expected %d)%n",
                        size, full == null ? 0 : full.nodes().size(), gpus, (PODS + 9) / 10);
                System.out.printf(
                        "agent heap (live, after GC, informer caches included): %,d MiB%n",
                        (heapAfter - heapBefore) >> 20);
                System.out.printf(
                        "of which the in-process Kafka broker before the agent started: %,d MiB%n",
                        (heapWithKafka - heapBefore) >> 20);
                if (HISTOGRAM > 0) {
                    histogram().lines().limit(HISTOGRAM + 3L).forEach(System.out::println);
                }
            }
        }
    }

    private static String histogram() throws Exception {
        return (String) ManagementFactory.getPlatformMBeanServer()
                .invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "gcClassHistogram",
                        new Object[] {null},
                        new String[] {String[].class.getName()});
    }

    /**
     * Puts objects straight into the CRUD mock's store, as its POST handler would store them (uid,
     * creationTimestamp, resourceVersion, generation 1), without its per-create scan of the whole store (which
     * made 55,000 creates take 14 minutes). Only before any client watches: no lock is taken.
     */
    private record MockStore(KubernetesCrudDispatcher store, KubernetesSerialization json) {
        void create(String path, HasMetadata object) {
            object.getMetadata().setUid(UUID.randomUUID().toString());
            object.getMetadata().setCreationTimestamp(Instant.now().toString());
            object.getMetadata().setResourceVersion(String.valueOf(store.requestResourceVersion()));
            object.getMetadata().setGeneration(1L);
            AttributeSet key = store.getKey(path)
                    .add(new Attribute(
                            KubernetesAttributesExtractor.NAME,
                            object.getMetadata().getName()));
            store.processEvent(path, key, null, null, json.asJson(object));
        }
    }
}
