package dev.cartograph.mock.server;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the request log costs a server: GETs of one ConfigMap from {@code THREADS} clients, with the log off (capacity
 * 0, no file), in memory (the default) and in memory plus a JSON-lines file; requests per second and the median and
 * 99th percentile latency per setting, each the best of three rounds after a warm-up. Not a test (run by hand):
 * {@code java -cp target/test-classes:target/classes:$(cat cp.txt) dev.cartograph.mock.server.RequestLogBenchmark}.
 */
public final class RequestLogBenchmark {
    private static final int THREADS = 4;
    private static final int REQUESTS_PER_THREAD = 5_000;

    private RequestLogBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path file = Files.createTempFile("requests", ".jsonl");
        List<MockApiServer.Options> settings = List.of(
                MockApiServer.Options.defaults().withRequestLogCapacity(0),
                MockApiServer.Options.defaults(),
                MockApiServer.Options.defaults().withRequestLogFile(file));
        List<String> names = List.of("off", "memory", "memory+file");
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < settings.size(); i++) {
                String result = best(settings.get(i));
                if (round == 1) {
                    System.out.println(names.get(i) + ": " + result);
                }
            }
        }
        System.out.println("file: " + Files.size(file) / 1024 + " KiB");
        Files.delete(file);
    }

    private static String best(MockApiServer.Options options) throws Exception {
        try (MockApiServer server = MockApiServer.start(options)) {
            server.client()
                    .configMaps()
                    .inNamespace("ml")
                    .resource(new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("settings")
                            .endMetadata()
                            .addToData("mode", "fast")
                            .build())
                    .create();
            String best = "";
            double bestRate = 0;
            for (int round = 0; round < 3; round++) {
                Result result = run(server);
                if (result.rate() > bestRate) {
                    bestRate = result.rate();
                    best = result.toString();
                }
            }
            return best;
        }
    }

    private static Result run(MockApiServer server) throws Exception {
        URI uri = URI.create(server.url() + "/api/v1/namespaces/ml/configmaps/settings");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<long[]>> threads = new ArrayList<>();
        long started = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
            threads.add(pool.submit(() -> {
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
                long[] latencies = new long[REQUESTS_PER_THREAD];
                for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
                    long sent = System.nanoTime();
                    HttpResponse<String> response =
                            http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("got " + response.statusCode());
                    }
                    latencies[i] = System.nanoTime() - sent;
                }
                return latencies;
            }));
        }
        List<Long> all = new ArrayList<>();
        for (Future<long[]> thread : threads) {
            for (long latency : thread.get()) {
                all.add(latency);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        pool.shutdown();
        all.sort(Long::compare);
        return new Result(
                all.size() / seconds, all.get(all.size() / 2) / 1_000, all.get(all.size() * 99 / 100) / 1_000);
    }

    private record Result(double rate, long p50Micros, long p99Micros) {
        @Override
        public String toString() {
            return String.format("%,.0f requests/s, p50 %d µs, p99 %d µs", rate, p50Micros, p99Micros);
        }
    }
}
