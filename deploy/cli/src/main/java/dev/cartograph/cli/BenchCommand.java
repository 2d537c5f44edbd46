package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.resolve.StatusEvaluator;
import dev.cartograph.interpreter.view.Phase;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code carto bench}: describe throughput on Workload Map's recorded objects, against the same
 * status expressions run by the {@code jq} program over the same objects. Also cross-checks that
 * both give the same phases. A benchmark command, not a test: numbers go to docs/benchmarks.md.
 */
@Command(name = "bench", description = "Benchmark describe against the jq program on recorded objects.")
final class BenchCommand implements Callable<Integer> {
    @Option(
            names = "--recorded",
            required = true,
            paramLabel = "DIR",
            description = "Workload Map recordings (../shared/recorded)")
    Path recorded;

    @Mixin
    DefinitionOptions definitions;

    @Option(
            names = "--seconds",
            defaultValue = "5",
            description = "measuring time per side (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--jq", defaultValue = "jq", description = "the jq program (default: ${DEFAULT-VALUE})")
    String jqProgram;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private static final int MAX_EXTRA_WARMUP_ROUNDS = 6;

    private int objectCount;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Interpreter interpreter = Interpreter.of(definitions.load().definitions());
        Map<WorkloadDefinition, List<JsonNode>> byDefinition = objects(interpreter);
        List<JsonNode> all =
                byDefinition.values().stream().flatMap(List::stream).toList();
        objectCount = all.size();
        if (all.isEmpty()) {
            spec.commandLine().getErr().println("no recorded objects with a definition under " + recorded);
            return Carto.INVALID;
        }
        out.printf("objects: %d recorded STATE objects of %d kinds%n", all.size(), byDefinition.size());
        Rate describe = rate(() -> all.forEach(interpreter::resolve));
        List<String> texts = new ArrayList<>();
        for (JsonNode o : all) {
            texts.add(Documents.json().writeValueAsString(o));
        }
        // the parsed object is the interpreter's alone, as an object read from Kafka or a file is
        Rate parseAndDescribe = rate(() -> texts.forEach(t -> {
            try {
                interpreter.resolveOwned(Documents.json().readTree(t));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }));
        Rate status = rate(() ->
                byDefinition.forEach((d, objs) -> objs.forEach(o -> StatusEvaluator.evaluate(d.status(), o))));
        JqRun jq = runJq(byDefinition);
        out.printf("cartograph describe (full view):  %,.0f objects/s%n", describe.wall());
        out.printf("cartograph parse JSON + describe: %,.0f objects/s%n", parseAndDescribe.wall());
        out.printf("cartograph status only:           %,.0f objects/s%n", status.wall());
        out.printf(
                "jq program, same status mappings: %,.0f objects/s (%d jq processes, %d objects each pass)%n",
                jq.rate(), byDefinition.size(), jq.objectsPerRun());
        out.printf(
                "ratio to jq: describe %.1fx, parse + describe %.1fx, status only %.1fx%n",
                describe.wall() / jq.rate(), parseAndDescribe.wall() / jq.rate(), status.wall() / jq.rate());
        if (jq.cpuRate() > 0 && describe.cpu() > 0) {
            out.printf(
                    "per CPU-second (this JVM's threads, jq's processes): describe %,.0f, parse + describe %,.0f,"
                            + " jq %,.0f objects/s; ratio to jq: describe %.1fx, parse + describe %.1fx%n",
                    describe.cpu(),
                    parseAndDescribe.cpu(),
                    jq.cpuRate(),
                    describe.cpu() / jq.cpuRate(),
                    parseAndDescribe.cpu() / jq.cpuRate());
        }
        out.printf("phases agree with jq on %d of %d objects%n", jq.agreeing(), all.size());
        out.flush();
        return jq.agreeing() == all.size() ? Carto.OK : Carto.INVALID;
    }

    private Map<WorkloadDefinition, List<JsonNode>> objects(Interpreter interpreter) throws IOException {
        Map<WorkloadDefinition, List<JsonNode>> out = new LinkedHashMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(recorded)) {
            files = walk.filter(p -> p.toString().endsWith(".yaml")
                            && !recorded.relativize(p).toString().startsWith("_"))
                    .sorted()
                    .toList();
        }
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                for (JsonNode doc : Documents.read(in)) {
                    for (JsonNode e : doc.path("events")) {
                        JsonNode object = e.get("object");
                        if ("STATE".equals(e.path("kind").asText()) && object != null) {
                            interpreter
                                    .definitionFor(object)
                                    .ifPresent(d -> out.computeIfAbsent(d, k -> new ArrayList<>())
                                            .add(object));
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * Objects per second of wall-clock time, and per second of this process's CPU time (every thread:
     * the JIT compiler and the collector too; 0 where the JVM cannot tell).
     */
    private record Rate(double wall, double cpu) {}

    /** Objects per second: the median of three measured rounds, after a warm-up to a steady rate. */
    private Rate rate(Runnable pass) {
        long warmupEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(1, seconds / 2));
        while (System.nanoTime() < warmupEnd) {
            pass.run();
        }
        // on a busy machine the JIT compiler can still be behind after the warm-up: go on warming up
        // while a round is clearly faster than the one before (a few rounds at most)
        double previous = round(pass).wall();
        for (int extra = 0; extra < MAX_EXTRA_WARMUP_ROUNDS; extra++) {
            double next = round(pass).wall();
            if (next < previous * 1.1) {
                break;
            }
            previous = next;
        }
        Rate[] rounds = {round(pass), round(pass), round(pass)};
        double[] wall = {rounds[0].wall(), rounds[1].wall(), rounds[2].wall()};
        double[] cpu = {rounds[0].cpu(), rounds[1].cpu(), rounds[2].cpu()};
        java.util.Arrays.sort(wall);
        java.util.Arrays.sort(cpu);
        return new Rate(wall[1], cpu[1]);
    }

    private Rate round(Runnable pass) {
        long cpuStart = processCpuNanos();
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(Math.max(300, seconds * 1000L / 3));
        long runs = 0;
        do {
            pass.run();
            runs++;
        } while (System.nanoTime() < end);
        double objects = runs * (double) objectCount;
        long cpu = processCpuNanos() - cpuStart;
        return new Rate(
                objects / ((System.nanoTime() - start) / 1e9), cpuStart < 0 || cpu <= 0 ? 0 : objects / (cpu / 1e9));
    }

    /** This JVM's CPU time so far, every thread; -1 where it cannot tell. */
    private static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : -1;
    }

    /**
     * CPU seconds used so far by this process's children that it has waited for (Linux
     * {@code /proc/self/stat} cutime + cstime, in clock ticks of 1/100 s); -1 elsewhere.
     */
    private static double childrenCpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) / 100.0; // fields 16 and 17
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {@code cpuRate}: objects per second of the jq processes' CPU time; 0 where it cannot be read. */
    private record JqRun(double rate, double cpuRate, int objectsPerRun, int agreeing) {}

    private JqRun runJq(Map<WorkloadDefinition, List<JsonNode>> byDefinition) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("carto-bench");
        try {
            int agreeing = 0;
            long objects = 0;
            long nanos = 0;
            double cpuSeconds = 0;
            int copies = 50;
            for (Map.Entry<WorkloadDefinition, List<JsonNode>> e : byDefinition.entrySet()) {
                Path program = dir.resolve(e.getKey().name() + ".jq");
                Files.writeString(program, JqStatusProgram.of(e.getKey().status()));
                Path input = dir.resolve(e.getKey().name() + ".jsonl");
                StringBuilder lines = new StringBuilder();
                for (JsonNode o : e.getValue()) {
                    lines.append(Documents.json().writeValueAsString(o)).append('\n');
                }
                Files.writeString(input, lines.toString().repeat(copies));
                List<String> once = jq(program, dir.resolve(e.getKey().name() + ".once.jsonl"), lines.toString(), dir);
                for (int i = 0; i < e.getValue().size(); i++) {
                    List<Phase> ours = StatusEvaluator.evaluate(
                                    e.getKey().status(), e.getValue().get(i))
                            .phases();
                    String theirs = i < once.size() ? once.get(i) : "";
                    agreeing += theirs.equals(ours.stream()
                                    .map(p -> "\"" + p.displayName() + "\"")
                                    .reduce((a, b) -> a + "," + b)
                                    .map(s -> "[" + s + "]")
                                    .orElse("[]"))
                            ? 1
                            : 0;
                }
                double cpuStart = childrenCpuSeconds();
                long start = System.nanoTime();
                long end = start + TimeUnit.SECONDS.toNanos(Math.max(1, seconds / byDefinition.size()));
                do {
                    runJq(program, input);
                    objects += (long) e.getValue().size() * copies;
                } while (System.nanoTime() < end);
                nanos += System.nanoTime() - start;
                cpuSeconds = cpuStart < 0 || cpuSeconds < 0 ? -1 : cpuSeconds + childrenCpuSeconds() - cpuStart;
            }
            return new JqRun(
                    objects / (nanos / 1e9),
                    cpuSeconds > 0 ? objects / cpuSeconds : 0,
                    byDefinition.values().stream().mapToInt(List::size).sum() * copies,
                    agreeing);
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                files.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    private List<String> jq(Path program, Path inputFile, String input, Path dir)
            throws IOException, InterruptedException {
        Files.writeString(inputFile, input);
        Path output = dir.resolve("out.txt");
        Process p = new ProcessBuilder(jqProgram, "-c", "-f", program.toString(), inputFile.toString())
                .redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (p.waitFor() != 0) {
            throw new IOException(jqProgram + " failed on " + program);
        }
        return Files.readAllLines(output, StandardCharsets.UTF_8);
    }

    private void runJq(Path program, Path input) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jqProgram, "-c", "-f", program.toString(), input.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (p.waitFor() != 0) {
            throw new IOException(jqProgram + " failed on " + program);
        }
    }
}
