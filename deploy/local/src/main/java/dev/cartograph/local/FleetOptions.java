package dev.cartograph.local;

import dev.cartograph.mock.admission.AdmissionRule;
import dev.cartograph.mock.fleet.FleetProfile;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a {@link LocalFleet} starts: where it keeps its files, which clusters it simulates, its ports and timings.
 * Immutable.
 *
 * @param data             the directory for kubeconfigs and Kafka's data (wiped on every start)
 * @param brokerPort       the broker's REST port (0: any free port)
 * @param kafkaPort        Kafka's listener port (0: any free port)
 * @param hubPort          the hub API server's port (0: any free port)
 * @param batchRunTime     how long simulated batch workloads run before they complete
 * @param heartbeat        how often agents heartbeat
 * @param heartbeatTimeout how long the broker waits for a heartbeat before a cluster is not ready
 * @param failoverTimeout  how long a cluster is not ready before the broker re-places its workloads
 * @param topicPrefix      the prefix of the Kafka topics the broker and agents share
 */
public record FleetOptions(
        Path data,
        FleetProfile profile,
        int brokerPort,
        int kafkaPort,
        int hubPort,
        Duration batchRunTime,
        Duration heartbeat,
        Duration heartbeatTimeout,
        Duration failoverTimeout,
        String topicPrefix) {
    public static FleetOptions defaults(Path data) {
        return new FleetOptions(
                data,
                FleetProfile.defaultProfile(),
                8080,
                0,
                0,
                Duration.ofSeconds(60),
                Duration.ofSeconds(2),
                Duration.ofSeconds(8),
                Duration.ofSeconds(30),
                "cartograph");
    }

    public FleetOptions withPorts(int broker, int kafka, int hub) {
        return new FleetOptions(
                data,
                profile,
                broker,
                kafka,
                hub,
                batchRunTime,
                heartbeat,
                heartbeatTimeout,
                failoverTimeout,
                topicPrefix);
    }

    public FleetOptions withProfile(FleetProfile p) {
        return new FleetOptions(
                data,
                p,
                brokerPort,
                kafkaPort,
                hubPort,
                batchRunTime,
                heartbeat,
                heartbeatTimeout,
                failoverTimeout,
                topicPrefix);
    }

    /**
     * Cluster {@code cluster}'s API server refuses the creates and updates {@code rules} deny, as a validating
     * webhook would (403, {@code admission webhook "..." denied the request: ...}), e.g.
     * {@code withAdmission("gpu-edge", AdmissionRule.denying("PyTorchJob", "PyTorchJobs are not allowed here"))}.
     *
     * @throws IllegalArgumentException when the profile has no such cluster
     */
    public FleetOptions withAdmission(String cluster, AdmissionRule... rules) {
        return withProfile(profile.withAdmission(cluster, rules));
    }

    public FleetOptions withBatchRunTime(Duration d) {
        return new FleetOptions(
                data,
                profile,
                brokerPort,
                kafkaPort,
                hubPort,
                d,
                heartbeat,
                heartbeatTimeout,
                failoverTimeout,
                topicPrefix);
    }

    public FleetOptions withTimeouts(Duration heartbeatEvery, Duration readyTimeout, Duration failover) {
        return new FleetOptions(
                data,
                profile,
                brokerPort,
                kafkaPort,
                hubPort,
                batchRunTime,
                heartbeatEvery,
                readyTimeout,
                failover,
                topicPrefix);
    }
}
