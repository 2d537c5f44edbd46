package dev.cartograph.broker.config;

import dev.cartograph.broker.BrokerRuntime;
import dev.cartograph.broker.access.AccessControl;
import dev.cartograph.broker.access.Authorizer;
import dev.cartograph.broker.access.StaticTokens;
import dev.cartograph.broker.coordinate.DecisionObserver;
import dev.cartograph.broker.hub.HubAccess;
import dev.cartograph.broker.hub.HubConnection;
import dev.cartograph.broker.settings.AccessSettings;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.broker.usage.UsageObserver;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.fleet.TopologyLevels;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.placement.Planner;
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
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires the broker from its configuration: the hub client, the catalog, the runtime (started eagerly). */
@Factory
public class BrokerFactory {
    /**
     * The clock everything here times with: the wall clock at start (the system's, skewed only in fault tests:
     * {@link ProcessClock}), moved on by the monotonic clock, so an NTP step while it runs changes no timeout
     * ({@link SteadyClock}, issue 34).
     */
    private static final Clock CLOCK = SteadyClock.from(ProcessClock.fromSystemProperties());

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFactory.class);

    @Singleton
    @jakarta.inject.Named("hub")
    @Bean(preDestroy = "close")
    KubernetesClient hubClient(BrokerProperties p) throws IOException {
        return new KubernetesClientBuilder().withConfig(hubConfig(p)).build();
    }

    /**
     * The hub client the REST API reviews callers' tokens and permissions with: a caller waits on it, so
     * it fails fast (no retries, short timeouts) and the caller gets a 503 saying why.
     */
    @Singleton
    @jakarta.inject.Named("hub-access")
    @Bean(preDestroy = "close")
    KubernetesClient hubAccessClient(BrokerProperties p) throws IOException {
        Config config = hubConfig(p);
        config.setRequestRetryBackoffLimit(0);
        config.setConnectionTimeout(3_000);
        config.setRequestTimeout(5_000);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static Config hubConfig(BrokerProperties p) throws IOException {
        return p.kubeconfig() == null || p.kubeconfig().isBlank()
                ? Config.autoConfigure(p.context())
                : Config.fromKubeconfig(p.context(), Files.readString(Path.of(p.kubeconfig())), p.kubeconfig());
    }

    /** Who may call the REST API and what they may see: the hub's reviews, or a static token file. */
    @Singleton
    AccessControl access(
            BrokerProperties p, @jakarta.inject.Named("hub-access") jakarta.inject.Provider<KubernetesClient> hub) {
        AccessSettings settings = accessSettings(p);
        AccessControl access = switch (settings.mode()) {
            case HUB -> {
                HubAccess reviews = new HubAccess(hub.get());
                yield new AccessControl(
                        reviews,
                        reviews,
                        "bearer tokens reviewed by the hub (TokenReview), permissions by SubjectAccessReview",
                        CLOCK,
                        settings.cacheTtl(),
                        settings.cacheSize());
            }
            case TOKEN_FILE -> {
                Path file = settings.tokenFile().orElseThrow();
                StaticTokens tokens = StaticTokens.parse(TokenFiles.read(file), file.toString());
                yield new AccessControl(
                        tokens,
                        Authorizer.ALLOW_ALL,
                        "the static token file " + file + " (" + tokens.size() + " users, each allowed everything)",
                        CLOCK,
                        settings.cacheTtl(),
                        settings.cacheSize());
            }
        };
        LOG.info("REST API access: {}", access);
        return access;
    }

    static AccessSettings accessSettings(BrokerProperties p) {
        return new AccessSettings(
                AccessSettings.Mode.of(p.authMode()),
                p.authTokenFile() == null || p.authTokenFile().isBlank()
                        ? Optional.empty()
                        : Optional.of(Path.of(p.authTokenFile())),
                p.authCacheTtl(),
                p.authCacheSize());
    }

    @Context
    @Bean(preDestroy = "close")
    BrokerRuntime broker(
            BrokerProperties p,
            @jakarta.inject.Named("hub") KubernetesClient hub,
            @io.micronaut.core.annotation.Nullable DecisionObserver decisions,
            @io.micronaut.core.annotation.Nullable UsageObserver usage)
            throws Exception {
        Definitions.Loaded catalog = Catalog.load();
        if (catalog.hasErrors()) {
            throw new IllegalStateException("the built-in catalog has errors: " + catalog.problems());
        }
        BrokerRuntime runtime = new BrokerRuntime(
                settings(p).withTopologyLevels(topologyLevels(p.topologyLevels())),
                new HubConnection(hub),
                catalog.definitions(),
                CLOCK,
                decisions == null ? DecisionObserver.NONE : decisions,
                usage == null ? UsageObserver.NONE : usage,
                usageRetention(p.usageRetention()));
        runtime.start();
        return runtime;
    }

    static Duration usageRetention(Duration retention) {
        if (retention.compareTo(Duration.ofHours(1)) < 0) {
            throw new IllegalArgumentException(
                    "cartograph.broker.usage-retention must be at least 1h, not " + retention);
        }
        return retention;
    }

    static BrokerSettings settings(BrokerProperties p) {
        Map<String, String> kafka = new HashMap<>(p.kafka() == null ? Map.of() : p.kafka());
        if (p.bootstrapServers() != null && !p.bootstrapServers().isBlank()) {
            kafka.put("bootstrap.servers", p.bootstrapServers());
        }
        if (!kafka.containsKey("bootstrap.servers")) {
            throw new IllegalArgumentException(
                    "cartograph.broker.bootstrap-servers (CARTOGRAPH_BROKER_BOOTSTRAP_SERVERS) is required");
        }
        Planner.Policy policy;
        try {
            policy = Planner.Policy.valueOf(p.policy().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "cartograph.broker.policy must be BIN_PACK or SPREAD, not " + p.policy());
        }
        String id = p.id() == null || p.id().isBlank()
                ? host() + "-" + UUID.randomUUID().toString().substring(0, 8)
                : p.id();
        return new BrokerSettings(
                        id,
                        p.topicPrefix(),
                        kafka,
                        p.heartbeatTimeout(),
                        p.failoverTimeout(),
                        p.federationLabel(),
                        policy,
                        p.replaceRunning(),
                        p.leaseNamespace(),
                        p.leaseName(),
                        p.tick(),
                        new BrokerSettings.Limits(p.maxPodsPerGang(), p.startTimeout()))
                .withTopicSettings(new TopicSettings(p.topicReplicationFactor(), p.topicMinInsyncReplicas()))
                .withPodSecurity(podSecurity(p.podSecurityLevel(), p.privilegedNamespaces()));
    }

    /** {@code cartograph.broker.topology-levels}, validated. */
    static TopologyLevels topologyLevels(List<String> levels) {
        try {
            return TopologyLevels.of(levels == null ? List.of() : levels);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cartograph.broker.topology-levels: " + e.getMessage(), e);
        }
    }

    /** {@code pod-security-level} and {@code privileged-namespaces}, validated. */
    static PodSecurityPolicy podSecurity(String level, List<String> privilegedNamespaces) {
        try {
            return PodSecurityPolicy.of(level, privilegedNamespaces);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "cartograph.broker.pod-security-level / privileged-namespaces: " + e.getMessage(), e);
        }
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "broker";
        }
    }
}
