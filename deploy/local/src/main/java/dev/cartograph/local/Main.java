package dev.cartograph.local;

import dev.cartograph.mock.fleet.FleetProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code deploy/bin/cartograph-local [--data DIR] [--profile FLEET.yaml|default|topology] [--broker-port N] [--kafka-port N] [--hub-port N]
 * [--run-seconds N]}: starts the local fleet, prints where everything is and what to try, and runs until Ctrl-C.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Path data = Path.of("target", "local-fleet");
        FleetProfile profile = FleetProfile.defaultProfile();
        int brokerPort = 8080;
        int kafkaPort = 9092;
        int hubPort = 6443;
        Duration run = Duration.ofSeconds(60);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--data" -> data = Path.of(need(a, v));
                case "--profile" -> profile = profile(need(a, v));
                case "--broker-port" -> brokerPort = Integer.parseInt(need(a, v));
                case "--kafka-port" -> kafkaPort = Integer.parseInt(need(a, v));
                case "--hub-port" -> hubPort = Integer.parseInt(need(a, v));
                case "--run-seconds" -> run = Duration.ofSeconds(Long.parseLong(need(a, v)));
                case "-h", "--help" -> {
                    System.out.println(
                            "usage: cartograph-local [--data DIR] [--profile FLEET.yaml|topology] [--broker-port 8080] [--kafka-port 9092]"
                                    + " [--hub-port 6443] [--run-seconds 60]");
                    return;
                }
                default -> {
                    System.err.println("unknown option " + a + " (try --help)");
                    System.exit(2);
                }
            }
            i++;
        }
        FleetOptions options = FleetOptions.defaults(data.toAbsolutePath())
                .withProfile(profile)
                .withPorts(brokerPort, kafkaPort, hubPort)
                .withBatchRunTime(run);
        LocalFleet fleet = LocalFleet.start(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            fleet.close();
                            stopped.countDown();
                        },
                        "local-fleet-stop"));
        String kc = fleet.hubKubeconfig().toString();
        String here = System.getProperty("cartograph.home", ".");
        System.out.printf(
                """

                Cartograph local fleet is up (a demo harness: clusters are simulated; state resets on every start).
                  hub API server   %s   kubeconfig: %s
                  member clusters  %s   kubeconfigs: %s/<name>.kubeconfig
                  dashboard        %s   (this link signs in; it holds the token)
                  broker REST      %s   (OpenAPI: %s/openapi/cartograph-broker-v1.yml)
                  broker token     %s   (mode 0600; new on every start; user %s may do everything)
                  Kafka            %s

                Try (from %s):
                  export CARTOGRAPH_TOKEN=$(cat %s)
                  deploy/bin/carto fleet --broker %s
                  kubectl --kubeconfig %s create -f deploy/local/examples/pytorchjob.yaml
                  kubectl --kubeconfig %s create -f deploy/local/examples/leaderworkerset.yaml
                  kubectl --kubeconfig %s get pytorchjobs,leaderworkersets -L cartograph.dev/cluster -L cartograph.dev/phase
                  deploy/bin/carto get -A --all-types --kubeconfig %s
                  deploy/bin/carto plan -f deploy/local/examples/jobset-whole-nodes.yaml --broker %s
                  curl -H "Authorization: Bearer $CARTOGRAPH_TOKEN" %s/api/v1/workloads
                Ctrl-C stops everything.
                """,
                fleet.hubUrl(),
                kc,
                String.join(", ", fleet.clusters()),
                options.data(),
                fleet.dashboardUrl(),
                fleet.brokerUrl(),
                fleet.brokerUrl(),
                fleet.token().file(),
                AdminToken.USER,
                fleet.bootstrapServers(),
                here,
                fleet.token().file(),
                fleet.brokerUrl(),
                kc,
                kc,
                kc,
                kc,
                fleet.brokerUrl(),
                fleet.brokerUrl());
        stopped.await();
    }

    /** A profile file, or the name of a bundled one ({@code default}, {@code topology}) when no such file exists. */
    private static FleetProfile profile(String value) {
        Path file = Path.of(value);
        if (java.nio.file.Files.exists(file)) {
            return FleetProfile.read(file);
        }
        return FleetProfile.bundled(value)
                .orElseThrow(() -> new IllegalArgumentException("--profile " + value
                        + ": no such file, and no bundled profile of that name (default, topology)"));
    }

    private static String need(String option, String value) {
        if (value == null) {
            System.err.println(option + " needs a value");
            System.exit(2);
        }
        return value;
    }
}
