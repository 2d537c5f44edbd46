package dev.cartograph.agent.config;

import dev.cartograph.agent.AgentObserver;
import dev.cartograph.agent.AgentRuntime;
import dev.cartograph.agent.AgentSettings;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.agent.metrics.AgentMetrics;
import dev.cartograph.agent.order.Deletions;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.launch.ProcessClock;
import dev.cartograph.protocol.launch.SteadyClock;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Wires the agent from its configuration: the cluster client, the catalog, the runtime (started eagerly).
 * Only when {@code cartograph.agent.cluster} is set, so the agent can be embedded (the local fleet, tests).
 */
@Factory
@io.micronaut.context.annotation.Requires(property = "cartograph.agent.cluster")
public class AgentFactory {
    /**
     * The clock everything here times with: the wall clock at start (the system's, skewed only in fault tests:
     * {@link ProcessClock}), moved on by the monotonic clock, so an NTP step while it runs changes no timeout
     * ({@link SteadyClock}, issue 34).
     */
    private static final Clock CLOCK = SteadyClock.from(ProcessClock.fromSystemProperties());

    @Singleton
    @Bean(preDestroy = "close")
    KubernetesClient kubernetesClient(AgentProperties p) throws IOException {
        Config config = p.kubeconfig() == null || p.kubeconfig().isBlank()
                ? Config.autoConfigure(p.context()) // in-cluster service account, or $KUBECONFIG / ~/.kube/config
                : Config.fromKubeconfig(p.context(), Files.readString(Path.of(p.kubeconfig())), p.kubeconfig());
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Context
    @Bean(preDestroy = "close")
    AgentRuntime agent(
            AgentProperties p, KubernetesClient client, @io.micronaut.core.annotation.Nullable AgentMetrics metrics) {
        Definitions.Loaded catalog = Catalog.load();
        if (catalog.hasErrors()) {
            throw new IllegalStateException("the built-in catalog has errors: " + catalog.problems());
        }
        AgentRuntime runtime = new AgentRuntime(
                settings(p),
                new MemberCluster(client),
                catalog.definitions(),
                CLOCK,
                metrics == null ? AgentObserver.NONE : metrics);
        if (metrics != null) {
            metrics.informers(runtime::informersSynced);
        }
        runtime.start();
        return runtime;
    }

    static AgentSettings settings(AgentProperties p) {
        if (p.cluster() == null || p.cluster().isBlank()) {
            throw new IllegalArgumentException("cartograph.agent.cluster (CARTOGRAPH_AGENT_CLUSTER) is required");
        }
        Map<String, String> kafka = new HashMap<>(p.kafka() == null ? Map.of() : p.kafka());
        if (p.bootstrapServers() != null && !p.bootstrapServers().isBlank()) {
            kafka.put("bootstrap.servers", p.bootstrapServers());
        }
        return new AgentSettings(
                p.cluster(),
                p.labels() == null ? Map.of() : p.labels(),
                p.topicPrefix(),
                kafka,
                p.publishInterval(),
                p.heartbeatInterval(),
                new HashSet<>(p.allowedNamespaces() == null ? List.of() : p.allowedNamespaces()),
                p.createNamespaces(),
                new SelfFence.Settings(
                        p.selfFence() ? Optional.of(p.selfFenceAfter()) : Optional.empty(), p.selfFenceRunning()),
                admission(p),
                new TopicSettings(p.topicReplicationFactor(), p.topicMinInsyncReplicas()),
                new Deletions.Limits(p.commandMaxAge(), Deletions.Limits.DEFAULT.maxEntries()));
    }

    /** {@code pod-security-level}, {@code privileged-namespaces}, {@code agent-namespace}, {@code system-namespaces}. */
    static AgentSettings.Admission admission(AgentProperties p) {
        try {
            return new AgentSettings.Admission(
                    PodSecurityPolicy.of(p.podSecurityLevel(), p.privilegedNamespaces()),
                    p.agentNamespace(),
                    new HashSet<>(p.systemNamespaces() == null ? List.of() : p.systemNamespaces()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "cartograph.agent.pod-security-level / privileged-namespaces /"
                            + " agent-namespace / system-namespaces: " + e.getMessage(),
                    e);
        }
    }
}
