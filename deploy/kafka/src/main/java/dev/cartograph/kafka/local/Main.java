package dev.cartograph.kafka.local;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link LocalKafka} broker until the JVM is interrupted (Ctrl-C):
 *
 * <pre>java -cp ... dev.cartograph.kafka.local.Main --data DIR [--port N]</pre>
 *
 * Prints {@code bootstrap.servers=127.0.0.1:PORT} on standard output once the broker accepts
 * clients. Exit codes: 0 after a clean shutdown, 1 if the broker could not start, 2 for bad usage.
 */
public final class Main {

    private static final String USAGE = "usage: Main --data DIR [--port N]";

    private Main() {}

    public static void main(String[] args) throws InterruptedException {
        Path data = null;
        int port = 0;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--data" -> data = Path.of(args[++i]);
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "-h", "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            if (data == null) {
                throw new IllegalArgumentException("--data is required");
            }
        } catch (RuntimeException e) { // IllegalArgument, NumberFormat, ArrayIndexOutOfBounds
            System.err.println(USAGE);
            System.exit(2);
            return;
        }

        LocalKafka kafka;
        try {
            kafka = port == 0 ? LocalKafka.start(data) : LocalKafka.start(data, port);
        } catch (RuntimeException e) {
            System.err.println("Kafka did not start: " + e);
            e.printStackTrace();
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            kafka.close();
                            stopped.countDown();
                        },
                        "local-kafka-shutdown"));
        System.out.println("bootstrap.servers=" + kafka.bootstrapServers());
        System.out.println("data=" + kafka.dataDir() + "  (Ctrl-C to stop)");
        System.out.flush();
        stopped.await();
    }
}
