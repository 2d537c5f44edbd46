package dev.cartograph.mock.server;

import dev.cartograph.mock.admission.Admission;
import dev.cartograph.mock.admission.AdmissionDenial;
import dev.cartograph.mock.fault.Faults;
import dev.cartograph.mock.rbac.Denial;
import dev.cartograph.mock.rbac.Rbac;
import dev.cartograph.mock.rbac.RbacGate;
import dev.cartograph.mock.requestlog.RequestLog;
import dev.cartograph.mock.watch.ChangeLog;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fabric8 mock Kubernetes API server in CRUD mode that real {@code kubectl} can use: plain HTTP
 * on 127.0.0.1, discovery documents for the built-in kinds and every stored CRD, and
 * {@code .../status} on custom resources, server-side Tables, watches over HTTP (what {@code kubectl get -w}
 * uses) and over WebSocket (what the fabric8 client uses). A test and demo harness, not an API server: no admission
 * but the denials configured, no validation, no controllers; server-side apply and protobuf bodies only approximately (see
 * the module README). With {@link Options#withRbac} it enforces RBAC as kube-apiserver does on requests whose
 * bearer token it knows (others are its own test client's and allowed); with {@link Options#withAdmission} it
 * refuses the creates and updates a validating webhook would (403, {@code admission webhook "..." denied the
 * request: ...}), whoever sends them. {@link #faults()} makes it answer as a loaded or failing API server does
 * (throttling, latency, errors, resets, stale lists, expired watches, compaction: see {@link Faults});
 * {@link #requestLog()} holds what it answered.
 *
 * <pre>{@code
 * try (MockApiServer server = MockApiServer.start(MockApiServer.Options.defaults()
 *         .withCrds(CatalogCrds.of(Catalog.load().definitions())))) {
 *     server.writeKubeconfig(Path.of("kubeconfig"), "ml");   // kubectl --kubeconfig kubeconfig get pytorchjobs
 *     server.client().pods().inNamespace("ml").list();
 * }
 * }</pre>
 *
 * Thread-safe. The server owns its client; {@link #close()} closes both.
 */
public final class MockApiServer implements AutoCloseable {
    /** How many changes watches can catch up on (a watch starting further back gets 410 Expired). */
    static final int CHANGES_RETAINED = 2_000;

    /** How many answered requests {@link #requestLog()} keeps by default. */
    public static final int REQUEST_LOG_CAPACITY = 10_000;

    private final HttpFront server;
    private final HttpWatches watches;
    private final DiscoveryDispatcher dispatcher;
    private final KubernetesClient client;
    private final RbacGate rbac;
    private final Faults faults;
    private final RequestLog requestLog;

    /**
     * How to start a server.
     *
     * @param port           the port on 127.0.0.1, 0 for a free one
     * @param crds           CRDs installed before {@link #start(Options)} returns
     * @param requestLogging log every request at INFO (SLF4J logger {@code dev.cartograph.mock.server.HttpFront}), for this server only
     * @param rbac           RBAC enforced on requests with a known bearer token ({@link Rbac#OFF}: none)
     * @param admission      creates and updates refused as a validating webhook refuses them ({@link Admission#NONE}: none)
     * @param requestLogCapacity how many answered requests {@link #requestLog()} keeps in memory (0: none)
     * @param requestLogFile a file every answered request is appended to, one JSON object per line
     */
    public record Options(
            int port,
            List<CustomResourceDefinition> crds,
            boolean requestLogging,
            Rbac rbac,
            Admission admission,
            int requestLogCapacity,
            Optional<Path> requestLogFile) {
        public Options {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 (any free port) or 1..65535, was " + port);
            }
            crds = List.copyOf(crds);
            Objects.requireNonNull(rbac, "rbac");
            Objects.requireNonNull(admission, "admission");
            if (requestLogCapacity < 0) {
                throw new IllegalArgumentException(
                        "the request log keeps 0 or more requests, was " + requestLogCapacity);
            }
            Objects.requireNonNull(requestLogFile, "requestLogFile");
        }

        /**
         * A free port, no CRDs, request logging at INFO off, RBAC off, everything admitted, the newest
         * {@value MockApiServer#REQUEST_LOG_CAPACITY} requests kept in memory, no request log file.
         */
        public static Options defaults() {
            return new Options(0, List.of(), false, Rbac.OFF, Admission.NONE, REQUEST_LOG_CAPACITY, Optional.empty());
        }

        public Options withPort(int newPort) {
            return new Options(newPort, crds, requestLogging, rbac, admission, requestLogCapacity, requestLogFile);
        }

        public Options withCrds(List<CustomResourceDefinition> newCrds) {
            return new Options(port, newCrds, requestLogging, rbac, admission, requestLogCapacity, requestLogFile);
        }

        public Options withRequestLogging(boolean enabled) {
            return new Options(port, crds, enabled, rbac, admission, requestLogCapacity, requestLogFile);
        }

        /** Enforce {@code newRbac}: requests bearing one of its tokens are held to its policy. */
        public Options withRbac(Rbac newRbac) {
            return new Options(port, crds, requestLogging, newRbac, admission, requestLogCapacity, requestLogFile);
        }

        /** Refuse the creates and updates {@code newAdmission} denies (403, as a validating webhook). */
        public Options withAdmission(Admission newAdmission) {
            return new Options(port, crds, requestLogging, rbac, newAdmission, requestLogCapacity, requestLogFile);
        }

        /** Keep the newest {@code capacity} answered requests in memory (0: none). */
        public Options withRequestLogCapacity(int capacity) {
            return new Options(port, crds, requestLogging, rbac, admission, capacity, requestLogFile);
        }

        /** Also append every answered request to {@code file}, one JSON object per line (see {@link RequestLog}). */
        public Options withRequestLogFile(Path file) {
            return new Options(port, crds, requestLogging, rbac, admission, requestLogCapacity, Optional.of(file));
        }
    }

    private MockApiServer(
            HttpFront server,
            HttpWatches watches,
            DiscoveryDispatcher dispatcher,
            RbacGate rbac,
            Faults faults,
            RequestLog requestLog) {
        this.server = server;
        this.rbac = rbac;
        this.faults = faults;
        this.requestLog = requestLog;
        this.watches = watches;
        this.dispatcher = dispatcher;
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withNamespace("default")
                .withHttp2Disable(true)
                .withRequestRetryBackoffLimit(0)
                .build();
        this.client = new KubernetesClientBuilder().withConfig(config).build();
    }

    /** Starts a server on a free port with no CRDs. */
    public static MockApiServer start() {
        return start(Options.defaults());
    }

    /** Starts a server and installs {@code options.crds()}; fails if the port is taken. */
    public static MockApiServer start(Options options) {
        ChangeLog changes = new ChangeLog(CHANGES_RETAINED);
        RecordingCrudDispatcher store = new RecordingCrudDispatcher(changes);
        AtomicReference<HttpFront> front = new AtomicReference<>();
        Clock clock = Clock.systemUTC();
        DiscoveryDispatcher dispatcher = new DiscoveryDispatcher(
                store,
                () -> "127.0.0.1:" + front.get().port(),
                DiscoveryDispatcher.KubeVersion.DEFAULT,
                clock,
                options.admission(),
                changes);
        HttpWatches watches = new HttpWatches(store, changes, dispatcher.servedTypes(), clock);
        RbacGate rbac = new RbacGate(options.rbac());
        Faults faults = new Faults(clock, watches);
        RequestLog requestLog = options.requestLogFile()
                .map(file -> RequestLog.toFile(options.requestLogCapacity(), file))
                .orElseGet(() -> RequestLog.inMemory(options.requestLogCapacity()));
        try {
            front.set(HttpFront.start(
                    loopback(),
                    options.port(),
                    new HttpFront.Backends(
                            dispatcher, watches, rbac, faults, requestLog, options.requestLogging(), clock)));
        } catch (RuntimeException e) {
            requestLog.close();
            throw e;
        }
        MockApiServer started = new MockApiServer(front.get(), watches, dispatcher, rbac, faults, requestLog);
        try {
            options.crds()
                    .forEach(crd -> started.client
                            .apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .resource(crd)
                            .create());
        } catch (RuntimeException e) {
            started.close();
            throw e;
        }
        return started;
    }

    /** {@code http://127.0.0.1:PORT}, no trailing slash. */
    public String url() {
        return "http://127.0.0.1:" + port();
    }

    public int port() {
        return server.port();
    }

    /** A client for this server, default namespace {@code default}; shared, owned by the server, do not close it. */
    public KubernetesClient client() {
        return client;
    }

    /**
     * How many watches the server streams now (for tests and diagnostics): over HTTP (kubectl's) and over WebSocket
     * (the fabric8 client's) of the types discovery serves.
     */
    int openWatches() {
        return watches.openCount();
    }

    /** The faults this server injects, changeable while it runs; none at start. */
    public Faults faults() {
        return faults;
    }

    /** The requests this server answered (the newest {@link Options#requestLogCapacity()} in memory). */
    public RequestLog requestLog() {
        return requestLog;
    }

    /** Every request RBAC denied so far, oldest first (none when RBAC is off). */
    public List<Denial> rbacDenials() {
        return rbac.denials();
    }

    /** Every create or update admission refused so far, oldest first (none without admission rules). */
    public List<AdmissionDenial> admissionDenials() {
        return dispatcher.admissionDenials();
    }

    /** The discovery documents as the server would serve them now (for tests and diagnostics). */
    public dev.cartograph.mock.discovery.Discovery discovery() {
        return dispatcher.discovery();
    }

    /**
     * Writes a kubeconfig for this server (context {@code cartograph-mock}, no credentials) with
     * {@code namespace} as the default namespace; creates parent folders.
     */
    public Path writeKubeconfig(Path file, String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        String yaml = String.join(
                "\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: cartograph-mock",
                "  cluster:",
                "    server: " + url(),
                "users:",
                "- name: cartograph-mock",
                "  user: {}",
                "contexts:",
                "- name: cartograph-mock",
                "  context:",
                "    cluster: cartograph-mock",
                "    user: cartograph-mock",
                "    namespace: " + namespace,
                "current-context: cartograph-mock",
                "");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot write kubeconfig " + file + " (retry will not help unless the path changes)", e);
        }
    }

    /** Closes the client, ends every watch, stops the server and closes the request log file; idempotent. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            try {
                server.close();
            } finally {
                requestLog.close();
            }
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName("127.0.0.1");
        } catch (UnknownHostException e) {
            throw new IllegalStateException("127.0.0.1 does not resolve", e);
        }
    }
}
