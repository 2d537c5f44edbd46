package dev.cartograph.local.fault.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A TCP forwarder for partition tests: listens on 127.0.0.1 and forwards every connection it accepts to one target,
 * while the test changes the link at runtime: {@link #cut()} both ways, {@link #cut(Direction)} one way,
 * {@link #delay(Duration)} every byte, {@link #heal()}, or {@link #resetConnections()}.
 *
 * <p>A cut direction is what packet loss looks like to the applications on either end: the bytes sent that way are
 * not delivered (the sender's writes succeed until the socket buffers and the proxy's small queue are full, then they
 * block; the receiver reads nothing), and an end of stream is not delivered either. They are held, not dropped: on
 * {@link #heal()} they flow, as TCP's retransmission delivers them once a partition that did not outlast the
 * connection is over (dropping them would leave HTTP or Kafka mid-message on heal, which a real partition does not).
 * A client's own timeouts are what end a connection during a partition, as on a real network;
 * {@link #resetConnections()} ends them all, as a partition that outlasts TCP's retransmission does. A connection
 * opened while the link is cut is accepted and opened to the target at once (a real partition would make the
 * connect time out; a user-space proxy cannot), and no bytes flow on it until healed.
 *
 * <p><b>Kafka:</b> a Kafka client follows the advertised listeners its bootstrap connection returns and then talks to
 * each broker at its advertised address, not through the bootstrap proxy. Partitioning a Kafka client from a broker
 * therefore takes one proxy per broker node and each node's listener advertised as its proxy's address. This class
 * does not set that up.
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", apiServerPort))) {
 *     // point the agent at proxy.port() ...
 *     proxy.cut(TcpProxy.Direction.SERVER_TO_CLIENT);  // requests arrive, answers do not
 *     proxy.heal();
 * }
 * }</pre>
 *
 * Thread-safe. Two threads per connection and direction (a reader and a writer, so latency does not cost throughput),
 * one accepting and one per connection while it connects to the target; all are daemons and end on {@link #close()}.
 */
public final class TcpProxy implements AutoCloseable {
    /** Which way bytes go: from the client that connected to the proxy, or from the target back to it. */
    public enum Direction {
        CLIENT_TO_SERVER,
        SERVER_TO_CLIENT
    }

    /** How many chunks a direction holds before its reader stops reading (then the sender's buffers fill). */
    private static final int QUEUED_CHUNKS = 64;

    private static final int CHUNK_BYTES = 16 * 1024;

    private final InetSocketAddress target;
    private final ServerSocket listening;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Object lock = new Object();
    private final Set<Direction> cut = EnumSet.noneOf(Direction.class);
    private Duration latency = Duration.ZERO;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress target, ServerSocket listening) {
        this.target = target;
        this.listening = listening;
    }

    /** Listens on a free port of 127.0.0.1 and forwards to {@code target}. */
    public static TcpProxy start(InetSocketAddress target) {
        return start(0, target);
    }

    /** Listens on {@code port} of 127.0.0.1 (0: a free one) and forwards to {@code target}; fails if it is taken. */
    public static TcpProxy start(int port, InetSocketAddress target) {
        Objects.requireNonNull(target, "target");
        try {
            ServerSocket listening = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
            TcpProxy proxy = new TcpProxy(target, listening);
            daemon("tcp-proxy-accept-" + listening.getLocalPort(), proxy::accept)
                    .start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("the proxy cannot listen on 127.0.0.1:" + port, e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return listening.getLocalPort();
    }

    /** {@code 127.0.0.1:port()}: where clients connect. */
    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port());
    }

    /** Holds back the bytes of both directions, on every connection, open or new, until {@link #heal()}. */
    public void cut() {
        change(() -> cut.addAll(List.of(Direction.values())));
    }

    /** Holds back the bytes going {@code direction} until {@link #heal()}; the other way still flows. */
    public void cut(Direction direction) {
        change(() -> cut.add(direction));
    }

    /**
     * Delivers every byte read from now on {@code by} after it was read, in both directions ({@link Duration#ZERO}:
     * none); bytes keep their order and the link its throughput.
     */
    public void delay(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("a latency cannot be negative, was " + by);
        }
        change(() -> latency = by);
    }

    /** Lets bytes flow both ways again, those held back first, with no latency added. */
    public void heal() {
        change(() -> {
            cut.clear();
            latency = Duration.ZERO;
        });
    }

    /** Closes every open connection on both ends (new ones are accepted as before); how many it closed. */
    public int resetConnections() {
        List<Link> open = new ArrayList<>(links);
        open.forEach(Link::close);
        return open.size();
    }

    /** How many connections are open through it now. */
    public int openConnections() {
        return links.size();
    }

    /** Stops listening and closes every connection; idempotent. */
    @Override
    public void close() {
        closed = true;
        try {
            listening.close();
        } catch (IOException e) {
            // closing anyway
        }
        resetConnections();
        change(() -> {}); // wakes writers waiting for a heal, so they see the closed sockets
    }

    private void change(Runnable change) {
        synchronized (lock) {
            change.run();
            lock.notifyAll();
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listening.accept();
                daemon("tcp-proxy-" + port() + "-connect-" + client.getPort(), () -> connect(client))
                        .start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void connect(Socket client) {
        Socket server = new Socket();
        try {
            server.connect(target, (int) TimeUnit.SECONDS.toMillis(10));
        } catch (IOException e) {
            close(client); // the target refused: so does the proxy, by closing
            return;
        }
        Link link = new Link(client, server);
        links.add(link);
        if (closed) {
            link.close();
            return;
        }
        link.start();
    }

    /** One proxied connection: the client's socket, the target's, and a pump each way. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        private int directionsDone;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            pump(Direction.CLIENT_TO_SERVER, client, server);
            pump(Direction.SERVER_TO_CLIENT, server, client);
        }

        private void pump(Direction direction, Socket from, Socket to) {
            BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
            String name = "tcp-proxy-" + port() + "-" + from.getPort() + "-" + direction;
            daemon(name + "-read", () -> read(from, queue)).start();
            daemon(name + "-write", () -> write(direction, queue, to)).start();
        }

        private void read(Socket from, BlockingQueue<Chunk> queue) {
            try {
                InputStream in = from.getInputStream(); // not closed here: that would close the socket both ways
                byte[] buffer = new byte[CHUNK_BYTES];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    enqueue(queue, new Chunk(Arrays.copyOf(buffer, n), dueAfter(), false));
                }
            } catch (IOException e) {
                // reset by its end, or closed by the proxy: either way this direction ends here
            }
            enqueue(queue, new Chunk(new byte[0], dueAfter(), true));
        }

        /** Waits for room (the writer holds bytes while cut), unless the link closes meanwhile. */
        private void enqueue(BlockingQueue<Chunk> queue, Chunk chunk) {
            try {
                while (!queue.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
                    if (isClosed()) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void write(Direction direction, BlockingQueue<Chunk> queue, Socket to) {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk chunk = queue.poll(100, TimeUnit.MILLISECONDS);
                    if (chunk == null) {
                        if (isClosed()) {
                            return;
                        }
                        continue;
                    }
                    awaitFlowing(direction, chunk.due());
                    if (chunk.end()) {
                        to.shutdownOutput(); // the end of stream goes on, so the other end can answer or close
                        break;
                    }
                    out.write(chunk.bytes());
                    out.flush();
                }
            } catch (IOException e) {
                close(); // one end is gone: so is the connection
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            directionDone();
        }

        /** Waits until {@code direction} is not cut and {@code due} (a nanoTime) has come, or the proxy is closed. */
        private void awaitFlowing(Direction direction, long due) throws InterruptedException, IOException {
            synchronized (lock) {
                while (true) {
                    if (isClosed()) {
                        throw new IOException("the link is closed");
                    }
                    long remaining = due - System.nanoTime();
                    if (cut.contains(direction)) {
                        lock.wait(); // heal(), another change or close() notifies
                    } else if (remaining > 0) {
                        lock.wait(Math.max(1, (remaining + 999_999) / 1_000_000)); // never early: rounded up
                    } else {
                        return;
                    }
                }
            }
        }

        private long dueAfter() {
            synchronized (lock) {
                return System.nanoTime() + latency.toNanos();
            }
        }

        private synchronized void directionDone() {
            directionsDone++;
            if (directionsDone == 2) {
                close();
            }
        }

        private boolean isClosed() {
            return closed || client.isClosed() || server.isClosed();
        }

        void close() {
            links.remove(this);
            TcpProxy.close(client);
            TcpProxy.close(server);
            change(() -> {}); // wakes this link's writers
        }
    }

    /** Bytes read (or the end of the stream), and when they may be written (a {@code System.nanoTime()}). */
    private record Chunk(byte[] bytes, long due, boolean end) {}

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
