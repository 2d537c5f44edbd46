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
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
@EnableKubernetesMockClient(crud = true)
class AgentScaleBenchmark {
    static final int NODES = Integer.getInteger("nodes", 5000);
    static final int PODS = Integer.getInteger("pods", 50_000);
    KubernetesClient client;

    @Test
    void fiveThousandNodesFiftyThousandPods() throws Exception {
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        String[] zones = {"a", "b", "c", "d"};
        for (int i = 0; i < NODES; i++) {
            int n = i;
            pool.submit(() -> client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("node-" + n)
                            .addToLabels(Map.of(
                                    "kubernetes.io/hostname",
                                    "node-" + n,
                                    "nvidia.com/gpu.product",
                                    "NVIDIA-H100-80GB-HBM3",
                                    "nvidia.com/gpu.count",
                                    "8",
                                    "topology.kubernetes.io/zone",
                                    zones[n % 4]))
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
                            .build())
                    .create());
        }
        for (int i = 0; i < PODS; i++) {
            int p = i;
            pool.submit(() -> client.pods()
                    .inNamespace("ns-" + (p % 50))
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("pod-" + p)
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
                            .build())
                    .create());
        }
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.MINUTES);
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
            }
        }
    }
}
