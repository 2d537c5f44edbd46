package dev.cartograph.interpreter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.resolve.StatusEvaluator;
import dev.cartograph.interpreter.testing.RecordedEvents;
import dev.cartograph.interpreter.testing.SharedData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Describe throughput on Workload Map's recorded objects with NVIDIA's definitions, as
 * {@code carto bench} measures it (median of five rounds after a warm-up), without the jq program
 * comparison, per second of the measuring thread's CPU time so that other load on the machine
 * matters less. A benchmark, not a test (surefire runs only {@code *Test}): run its {@code main} with
 * the test classpath, optionally with seconds per round as the argument. It uses only the public
 * API, so the same file measures older revisions of the interpreter too.
 */
public final class ResolveThroughputBenchmark {
    private ResolveThroughputBenchmark() {}

    public static void main(String[] args) throws IOException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        Path recorded =
                SharedData.recorded().orElseThrow(() -> new IllegalStateException(SharedData.absent("recorded")));
        Interpreter interpreter = Interpreter.of(
                Definitions.load(recorded.resolve("_definitions")).definitions());
        List<JsonNode> objects = new ArrayList<>();
        for (RecordedEvents.Recording r : RecordedEvents.all(recorded)) {
            r.events().forEach(e -> objects.add(e.object()));
        }
        List<WorkloadDefinition> definitions = objects.stream()
                .map(o -> interpreter.definitionFor(o).orElseThrow())
                .toList();
        measure("describe (full view)", () -> objects.forEach(interpreter::resolve), objects.size(), seconds);
        measure(
                "status only",
                () -> {
                    for (int i = 0; i < objects.size(); i++) {
                        StatusEvaluator.evaluate(definitions.get(i).status(), objects.get(i));
                    }
                },
                objects.size(),
                seconds);
    }

    private static void measure(String what, Runnable pass, int objects, int seconds) {
        long warmupEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < warmupEnd) {
            pass.run();
        }
        double[] rounds = new double[5];
        for (int i = 0; i < rounds.length; i++) {
            rounds[i] = round(pass, objects, seconds);
        }
        Arrays.sort(rounds);
        System.out.printf(
                "%s: %,.0f objects per CPU second, median of 5 rounds (%d recorded objects; best %,.0f);"
                        + " %,.0f bytes allocated per object%n",
                what, rounds[2], objects, rounds[4], allocatedPerObject(pass, objects));
    }

    /** Heap allocated by one pass, per object: deterministic, so comparable however loaded the machine is. */
    private static double allocatedPerObject(Runnable pass, int objects) {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)) {
            return Double.NaN;
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        pass.run();
        return (threads.getThreadAllocatedBytes(id) - before) / (double) objects;
    }

    private static double round(Runnable pass, int objects, int seconds) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long runs = 0;
        do {
            pass.run();
            runs++;
        } while (System.nanoTime() < end);
        return runs * (double) objects / ((threads.getCurrentThreadCpuTime() - cpuStart) / 1e9);
    }
}
