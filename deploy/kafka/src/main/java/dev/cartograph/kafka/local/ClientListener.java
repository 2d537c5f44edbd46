package dev.cartograph.kafka.local;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One more plaintext client listener of a node: it binds {@code port} of 127.0.0.1 and advertises {@code advertisedPort}
 * (a proxy in front of it), so the clients that bootstrap through that proxy keep talking through it — and a fault
 * harness can cut one client off from Kafka while the others, and the nodes among themselves, still talk. As Kafka
 * does, a client learns the addresses of the listener it connected to.
 *
 * @param name           the listener's name, {@code [A-Z][A-Z0-9_]*} (not PLAINTEXT or CONTROLLER)
 * @param port           where the node listens
 * @param advertisedPort what it tells clients of this listener to connect to
 */
public record ClientListener(String name, int port, int advertisedPort) {
    private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]*");

    public ClientListener {
        if (!NAME.matcher(name).matches() || name.equals("PLAINTEXT") || name.equals("CONTROLLER")) {
            throw new IllegalArgumentException(
                    "a client listener's name is [A-Z][A-Z0-9_]* and not PLAINTEXT or CONTROLLER: " + name);
        }
    }

    /** {@code NAME=PORT@ADVERTISED_PORT}, as NodeMain's {@code --listener} takes it. */
    public static ClientListener parse(String text) {
        String[] nameAndPorts = text.split("=", 2);
        String[] ports = nameAndPorts.length == 2 ? nameAndPorts[1].split("@", 2) : new String[0];
        if (ports.length != 2) {
            throw new IllegalArgumentException("--listener is NAME=PORT@ADVERTISED_PORT, not " + text);
        }
        return new ClientListener(nameAndPorts[0], Integer.parseInt(ports[0]), Integer.parseInt(ports[1]));
    }

    /** The argument {@link #parse} reads. */
    public String argument() {
        return name + "=" + port + "@" + advertisedPort;
    }

    /** {@code properties} (a plaintext node's) with {@code listeners} added to its listeners, advertised and mapped. */
    static Map<String, String> addedTo(Map<String, String> properties, List<ClientListener> listeners) {
        Map<String, String> p = new LinkedHashMap<>(properties);
        for (ClientListener l : listeners) {
            p.merge("listeners", l.name + "://" + KafkaNode.HOST + ":" + l.port, (a, b) -> a + "," + b);
            p.merge(
                    "advertised.listeners",
                    l.name + "://" + KafkaNode.HOST + ":" + l.advertisedPort,
                    (a, b) -> a + "," + b);
            p.merge("listener.security.protocol.map", l.name + ":PLAINTEXT", (a, b) -> a + "," + b);
        }
        return p;
    }
}
