package dev.cartograph.local.fault.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each mode of the link, against a local echo server that greets every connection with {@code hi} and echoes what it
 * reads, counting the bytes it got. Counts are by hand: {@code ping} is 4 bytes, {@code hi} 2.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TcpProxyTest {
    private static final Duration QUIET = Duration.ofMillis(300);

    private EchoServer echo;
    private TcpProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new EchoServer();
        proxy = TcpProxy.start(echo.address());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void forwardsBothWays() throws Exception {
        try (Socket client = connect()) {
            assertThat(read(client, 2)).isEqualTo("hi");
            send(client, "ping");

            assertThat(read(client, 4)).isEqualTo("ping");
            assertThat(echo.received()).isEqualTo(4);
            assertThat(proxy.openConnections()).isEqualTo(1);
        }
    }

    @Test
    void aCutLinkCarriesNothingEitherWayAndDeliversWhatWasHeldWhenHealed() throws Exception {
        try (Socket client = connect()) {
            assertThat(read(client, 2)).isEqualTo("hi");
            proxy.cut();
            send(client, "ping");

            assertThat(nothingWithin(client, QUIET)).isTrue();
            assertThat(echo.received()).isZero();

            proxy.heal();
            assertThat(read(client, 4)).isEqualTo("ping");
            assertThat(echo.received()).isEqualTo(4);
        }
    }

    @Test
    void cutClientToServerHoldsWhatTheClientSendsWhileTheServerIsStillHeard() throws Exception {
        proxy.cut(TcpProxy.Direction.CLIENT_TO_SERVER);
        try (Socket client = connect()) {
            assertThat(read(client, 2)).as("the greeting still arrives").isEqualTo("hi");
            send(client, "ping");

            assertThat(nothingWithin(client, QUIET)).isTrue();
            assertThat(echo.received()).isZero();

            proxy.heal();
            assertThat(read(client, 4)).isEqualTo("ping");
            assertThat(echo.received()).isEqualTo(4);
        }
    }

    @Test
    void cutServerToClientDeliversTheRequestButHoldsTheAnswer() throws Exception {
        try (Socket client = connect()) {
            assertThat(read(client, 2)).isEqualTo("hi");
            proxy.cut(TcpProxy.Direction.SERVER_TO_CLIENT);
            send(client, "ping");

            awaitReceived(4);
            assertThat(nothingWithin(client, QUIET)).as("the echo is held").isTrue();

            proxy.heal();
            assertThat(read(client, 4)).isEqualTo("ping");
        }
    }

    @Test
    void aDelayedLinkDeliversEachWayThatMuchLater() throws Exception {
        try (Socket client = connect()) {
            assertThat(read(client, 2)).isEqualTo("hi");
            proxy.delay(Duration.ofMillis(250));

            long sent = System.nanoTime();
            send(client, "ping");
            assertThat(read(client, 4)).isEqualTo("ping");
            Duration roundTrip = Duration.ofNanos(System.nanoTime() - sent);

            // 250 ms to the server and 250 ms back
            assertThat(roundTrip).isGreaterThanOrEqualTo(Duration.ofMillis(500));

            proxy.heal();
            long again = System.nanoTime();
            send(client, "ping");
            assertThat(read(client, 4)).isEqualTo("ping");
            assertThat(Duration.ofNanos(System.nanoTime() - again)).isLessThan(Duration.ofMillis(500));
        }
    }

    @Test
    void resettingClosesTheOpenConnectionsAndNewOnesStillWork() throws Exception {
        try (Socket first = connect()) {
            assertThat(read(first, 2)).isEqualTo("hi");

            assertThat(proxy.resetConnections()).isEqualTo(1);

            assertThat(endOfStream(first)).isTrue();
            try (Socket second = connect()) {
                assertThat(read(second, 2)).isEqualTo("hi");
            }
        }
    }

    @Test
    void aClientThatClosesItsSideGetsTheServersLastBytesAndTheConnectionEnds() throws Exception {
        try (Socket client = connect()) {
            assertThat(read(client, 2)).isEqualTo("hi");
            send(client, "ping");
            client.shutdownOutput();

            assertThat(read(client, 4)).isEqualTo("ping");
            assertThat(endOfStream(client))
                    .as("the echo server closes on end of stream")
                    .isTrue();
        }
    }

    @Test
    void closingTheProxyEndsItsConnectionsAndStopsListening() throws Exception {
        Socket client = connect();
        assertThat(read(client, 2)).isEqualTo("hi");

        proxy.close();

        assertThat(endOfStream(client)).isTrue();
        client.close();
        Socket refused = new Socket();
        try {
            refused.connect(proxy.address(), 1_000);
            assertThat(endOfStream(refused)).as("nobody answers on the port").isTrue();
        } catch (IOException expected) {
            // connection refused
        } finally {
            refused.close();
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(proxy.address(), 1_000);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private void awaitReceived(long bytes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (echo.received() < bytes && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(echo.received()).isEqualTo(bytes);
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String read(Socket socket, int bytes) throws IOException {
        byte[] read = socket.getInputStream().readNBytes(bytes);
        return new String(read, StandardCharsets.US_ASCII);
    }

    /** Whether nothing arrives for {@code quiet}. */
    private static boolean nothingWithin(Socket socket, Duration quiet) throws IOException {
        int timeout = socket.getSoTimeout();
        socket.setSoTimeout((int) quiet.toMillis());
        try {
            socket.getInputStream().read();
            return false; // a byte, or the end of the stream
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(timeout);
        }
    }

    /** Whether the stream ends (or is reset) before anything more arrives. */
    private static boolean endOfStream(Socket socket) {
        try {
            socket.setSoTimeout(5_000);
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** Greets each connection with {@code hi}, echoes what it reads, closes on end of stream; counts bytes read. */
    private static final class EchoServer implements AutoCloseable {
        private final ServerSocket listening;
        private final AtomicLong received = new AtomicLong();

        EchoServer() throws IOException {
            listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread accept = new Thread(this::accept, "echo-accept");
            accept.setDaemon(true);
            accept.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), listening.getLocalPort());
        }

        long received() {
            return received.get();
        }

        private void accept() {
            while (!listening.isClosed()) {
                try {
                    Socket socket = listening.accept();
                    Thread echo = new Thread(() -> echo(socket), "echo");
                    echo.setDaemon(true);
                    echo.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void echo(Socket socket) {
            try (socket) {
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                out.write("hi".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                byte[] buffer = new byte[1024];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    received.addAndGet(n);
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the proxy closed the connection
            }
        }

        @Override
        public void close() throws IOException {
            listening.close();
        }
    }
}
