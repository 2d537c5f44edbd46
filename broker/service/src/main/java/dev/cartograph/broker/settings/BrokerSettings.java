package dev.cartograph.broker.settings;

import dev.cartograph.fleet.TopologyLevels;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.TopicSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one broker needs to run. Immutable.
 *
 * @param brokerId          this instance's identity in the leader lease
 * @param heartbeatTimeout  a cluster whose agent was silent longer is NotReady and gets no placements
 * @param failoverTimeout   a cluster NotReady this long is lost: its gangs that never started are re-placed
 * @param federationLabel   {@code key=value}: objects (or namespaces) with it are federated
 * @param replaceRunning    also re-place gangs that were running on a lost cluster (off by default)
 * @param leaseNamespace    where the leader Lease lives on the hub; leader election is off when blank
 * @param tick              how often readiness and failover are re-checked
 * @param limits            budgets on what users submit and on how long a member may take
 * @param topicSettings     replication factor and min.insync.replicas of the topics the broker creates
 * @param podSecurity       the pod security level each namespace's workloads are checked against before placing
 * @param topologyLevels    the node label keys whose values are the fleet view's topology domains, widest first
 */
public record BrokerSettings(
        String brokerId,
        String topicPrefix,
        Map<String, String> kafka,
        Duration heartbeatTimeout,
        Duration failoverTimeout,
        String federationLabel,
        Planner.Policy policy,
        boolean replaceRunning,
        String leaseNamespace,
        String leaseName,
        Duration tick,
        Limits limits,
        TopicSettings topicSettings,
        PodSecurityPolicy podSecurity,
        TopologyLevels topologyLevels) {
    /**
     * Budgets. Immutable.
     *
     * @param maxPodsPerGang the most pods one gang may ask to have planned; a larger one fails with that reason
     * @param startTimeout   a placed gang whose member has not bound all its pods this long after it was
     *                       applied is taken back and placed again elsewhere
     */
    public record Limits(int maxPodsPerGang, Duration startTimeout) {
        public static final Limits DEFAULTS = new Limits(10_000, Duration.ofMinutes(10));

        public Limits {
            if (maxPodsPerGang < 1) {
                throw new IllegalArgumentException("max-pods-per-gang must be at least 1, not " + maxPodsPerGang);
            }
            Objects.requireNonNull(startTimeout, "startTimeout");
            if (startTimeout.isNegative() || startTimeout.isZero()) {
                throw new IllegalArgumentException("start-timeout must be positive, not " + startTimeout);
            }
        }
    }

    /** Settings with the default {@link Limits}. */
    public BrokerSettings(
            String brokerId,
            String topicPrefix,
            Map<String, String> kafka,
            Duration heartbeatTimeout,
            Duration failoverTimeout,
            String federationLabel,
            Planner.Policy policy,
            boolean replaceRunning,
            String leaseNamespace,
            String leaseName,
            Duration tick) {
        this(
                brokerId,
                topicPrefix,
                kafka,
                heartbeatTimeout,
                failoverTimeout,
                federationLabel,
                policy,
                replaceRunning,
                leaseNamespace,
                leaseName,
                tick,
                Limits.DEFAULTS);
    }

    /** Settings with the default {@link TopicSettings} (3 replicas, 2 in sync). */
    public BrokerSettings(
            String brokerId,
            String topicPrefix,
            Map<String, String> kafka,
            Duration heartbeatTimeout,
            Duration failoverTimeout,
            String federationLabel,
            Planner.Policy policy,
            boolean replaceRunning,
            String leaseNamespace,
            String leaseName,
            Duration tick,
            Limits limits) {
        this(
                brokerId,
                topicPrefix,
                kafka,
                heartbeatTimeout,
                failoverTimeout,
                federationLabel,
                policy,
                replaceRunning,
                leaseNamespace,
                leaseName,
                tick,
                limits,
                TopicSettings.DEFAULTS);
    }

    /**
     * Settings with the default pod security ({@link PodSecurityPolicy#DEFAULT}: baseline everywhere) and topology
     * levels ({@link TopologyLevels#DEFAULT}: zone, rack, NVLink clique); the {@code with…} methods change them.
     */
    public BrokerSettings(
            String brokerId,
            String topicPrefix,
            Map<String, String> kafka,
            Duration heartbeatTimeout,
            Duration failoverTimeout,
            String federationLabel,
            Planner.Policy policy,
            boolean replaceRunning,
            String leaseNamespace,
            String leaseName,
            Duration tick,
            Limits limits,
            TopicSettings topicSettings) {
        this(
                brokerId,
                topicPrefix,
                kafka,
                heartbeatTimeout,
                failoverTimeout,
                federationLabel,
                policy,
                replaceRunning,
                leaseNamespace,
                leaseName,
                tick,
                limits,
                topicSettings,
                PodSecurityPolicy.DEFAULT,
                TopologyLevels.DEFAULT);
    }

    /** These settings with another pod security policy. */
    public BrokerSettings withPodSecurity(PodSecurityPolicy podSecurity) {
        return new BrokerSettings(
                brokerId,
                topicPrefix,
                kafka,
                heartbeatTimeout,
                failoverTimeout,
                federationLabel,
                policy,
                replaceRunning,
                leaseNamespace,
                leaseName,
                tick,
                limits,
                topicSettings,
                podSecurity,
                topologyLevels);
    }

    /** These settings with other topic settings. */
    public BrokerSettings withTopicSettings(TopicSettings topics) {
        return new BrokerSettings(
                brokerId,
                topicPrefix,
                kafka,
                heartbeatTimeout,
                failoverTimeout,
                federationLabel,
                policy,
                replaceRunning,
                leaseNamespace,
                leaseName,
                tick,
                limits,
                topics,
                podSecurity,
                topologyLevels);
    }

    /** These settings with other topology levels. */
    public BrokerSettings withTopologyLevels(TopologyLevels levels) {
        return new BrokerSettings(
                brokerId,
                topicPrefix,
                kafka,
                heartbeatTimeout,
                failoverTimeout,
                federationLabel,
                policy,
                replaceRunning,
                leaseNamespace,
                leaseName,
                tick,
                limits,
                topicSettings,
                podSecurity,
                levels);
    }

    public BrokerSettings {
        Objects.requireNonNull(brokerId, "brokerId");
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        kafka = Map.copyOf(kafka);
        Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
        Objects.requireNonNull(failoverTimeout, "failoverTimeout");
        if (failoverTimeout.compareTo(heartbeatTimeout) < 0) {
            throw new IllegalArgumentException("failover-timeout (" + failoverTimeout
                    + ") cannot be shorter than heartbeat-timeout (" + heartbeatTimeout + ")");
        }
        Objects.requireNonNull(federationLabel, "federationLabel");
        if (!federationLabel.matches("[^=\\s]+=[^=\\s]*")) {
            throw new IllegalArgumentException(
                    "federation-label '" + federationLabel + "' must be key=value, e.g. cartograph.dev/federate=true");
        }
        Objects.requireNonNull(policy, "policy");
        leaseNamespace = leaseNamespace == null ? "" : leaseNamespace;
        leaseName = leaseName == null || leaseName.isBlank() ? "cartograph-broker" : leaseName;
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(topicSettings, "topicSettings");
        Objects.requireNonNull(podSecurity, "podSecurity");
        Objects.requireNonNull(topologyLevels, "topologyLevels");
    }

    public int maxPodsPerGang() {
        return limits.maxPodsPerGang();
    }

    public String federationKey() {
        return federationLabel.substring(0, federationLabel.indexOf('='));
    }

    public String federationValue() {
        return federationLabel.substring(federationLabel.indexOf('=') + 1);
    }

    public boolean leaderElection() {
        return !leaseNamespace.isBlank();
    }
}
