package dev.cartograph.kafka.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one node of a several-node local Kafka cluster in a JVM of its own, so that a test can kill
 * it the way a machine kills a process (SIGKILL: no shutdown hook, no controlled shutdown, no
 * clean-shutdown marker) and start it again on the same data and ports:
 *
 * <pre>java -cp ... dev.cartograph.kafka.local.NodeMain --id 2 --data DIR --port 40123 --cluster-id ID
 *     --voters 1@127.0.0.1:40124,2@127.0.0.1:40126,3@127.0.0.1:40128</pre>
 *
 * The node is configured exactly like a {@link LocalKafkaCluster} node (combined broker and
 * controller, automatic topic creation off, fenced 6 s after its last heartbeat); {@code --voters}
 * names every node of the cluster, this one included, with its controller port; each {@code --listener} adds a
 * {@link ClientListener} (a fault harness's proxy in front of it). The first start
 * formats {@code DIR} for {@code --cluster-id} (start every voter at once: a node's start returns
 * only when a quorum has elected a controller); later starts recover what is there.
 *
 * <p>Prints {@code kafka node ID ready at 127.0.0.1:PORT} once the node is a registered, unfenced
 * broker. Exit codes: 1 if the node could not start, 2 for bad usage; it never exits on its own
 * otherwise (an ordinary stop, SIGTERM, shuts it down cleanly).
 */
public final class NodeMain {
    private static final String USAGE =
            "usage: NodeMain --id N --data DIR --port N --cluster-id ID --voters ID@HOST:PORT,..."
                    + " [--listener NAME=PORT@ADVERTISED_PORT]...";

    private NodeMain() {}

    public static void main(String[] args) throws InterruptedException {
        KafkaNode node;
        List<KafkaNode> voters;
        String clusterId;
        List<ClientListener> listeners;
        try {
            Args a = Args.parse(args);
            node = new KafkaNode(a.id, a.data.toAbsolutePath(), a.port, a.controllerPortOf(a.id));
            voters = a.voters(node);
            clusterId = a.clusterId;
            listeners = a.listeners;
        } catch (RuntimeException e) { // IllegalArgument, NumberFormat, ArrayIndexOutOfBounds
            System.err.println(e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        try {
            node.formatIfNeeded(clusterId);
            node.start(ClientListener.addedTo(node.serverProperties(voters, false), listeners));
        } catch (RuntimeException e) {
            System.err.println("Kafka node " + node.id() + " did not start: " + e);
            e.printStackTrace();
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            node.stop();
                            stopped.countDown();
                        },
                        "kafka-node-shutdown"));
        System.out.println("kafka node " + node.id() + " ready at " + node.address());
        System.out.flush();
        stopped.await();
    }

    /** The command line, parsed; {@code voters} as {@code id@host:controllerPort}. */
    private record Args(
            int id, Path data, int port, String clusterId, List<String[]> voters, List<ClientListener> listeners) {
        static Args parse(String[] args) {
            Integer id = null;
            Path data = null;
            Integer port = null;
            String clusterId = null;
            List<String[]> voters = new ArrayList<>();
            List<ClientListener> listeners = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--id" -> id = Integer.parseInt(args[++i]);
                    case "--data" -> data = Path.of(args[++i]);
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "--cluster-id" -> clusterId = args[++i];
                    case "--voters" -> {
                        for (String v : args[++i].split(",")) {
                            String[] idAndAddress = v.split("@", 2);
                            String[] hostAndPort = idAndAddress[1].split(":", 2);
                            if (!KafkaNode.HOST.equals(hostAndPort[0])) {
                                throw new IllegalArgumentException(
                                        "voters listen on " + KafkaNode.HOST + ", not " + hostAndPort[0]);
                            }
                            voters.add(new String[] {idAndAddress[0], hostAndPort[1]});
                        }
                    }
                    case "--listener" -> listeners.add(ClientListener.parse(args[++i]));
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            if (id == null || data == null || port == null || clusterId == null || voters.isEmpty()) {
                throw new IllegalArgumentException("--id, --data, --port, --cluster-id and --voters are required");
            }
            return new Args(id, data, port, clusterId, voters, List.copyOf(listeners));
        }

        int controllerPortOf(int node) {
            return voters.stream()
                    .filter(v -> Integer.parseInt(v[0]) == node)
                    .findFirst()
                    .map(v -> Integer.parseInt(v[1]))
                    .orElseThrow(() -> new IllegalArgumentException("--voters does not name node " + node));
        }

        /** Every voter as a node; only this one's directory and client port are used (the others' are not known here). */
        List<KafkaNode> voters(KafkaNode self) {
            return voters.stream()
                    .map(v -> Integer.parseInt(v[0]) == self.id()
                            ? self
                            : new KafkaNode(Integer.parseInt(v[0]), self.dataDir(), 0, Integer.parseInt(v[1])))
                    .toList();
        }
    }
}
