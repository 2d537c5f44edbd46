package dev.cartograph.agent.metrics;

import dev.cartograph.agent.AgentObserver;
import dev.cartograph.protocol.CommandResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The agent's metrics: cluster summaries Kafka acknowledged, commands by kind and outcome, how long an apply takes
 * (a histogram), and whether each informer has its first list ({@link #refresh} reads them; run before every
 * scrape). Counters are made once, here, so a command allocates nothing. Thread-safe.
 */
public final class AgentMetrics implements AgentObserver {
    static final List<String> COMMANDS = List.of("apply", "delete");

    private final Counter summaries;
    private final Counter[][] commands;
    private final Timer apply;
    private final MultiGauge synced;
    private volatile Supplier<Map<String, Boolean>> informers = Map::of;

    public AgentMetrics(MeterRegistry registry) {
        summaries = Counter.builder("cartograph.agent.summaries.published")
                .description("Cluster summaries Kafka acknowledged")
                .register(registry);
        CommandResult.Outcome[] outcomes = CommandResult.Outcome.values();
        commands = new Counter[COMMANDS.size()][outcomes.length];
        for (int c = 0; c < COMMANDS.size(); c++) {
            for (CommandResult.Outcome o : outcomes) {
                commands[c][o.ordinal()] = Counter.builder("cartograph.agent.commands")
                        .description("Commands from the broker carried out, by command and outcome")
                        .tag("command", COMMANDS.get(c))
                        .tag("outcome", o.name().toLowerCase(java.util.Locale.ROOT))
                        .register(registry);
            }
        }
        apply = Timer.builder("cartograph.agent.apply")
                .description("Time to carry out one apply command: admit, copy dependencies, create or update")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        synced = MultiGauge.builder("cartograph.agent.informer.synced")
                .description("1 once an informer has its first list from the API server, else 0")
                .register(registry);
    }

    /** Where {@link #refresh} reads the informers from (the runtime, once it exists). */
    public void informers(Supplier<Map<String, Boolean>> informers) {
        this.informers = informers;
    }

    /** Replaces the informer rows with their state now. */
    public synchronized void refresh() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        informers
                .get()
                .forEach((resource, ok) -> rows.add(MultiGauge.Row.of(Tags.of("resource", resource), ok ? 1 : 0)));
        synced.register(rows, true);
    }

    @Override
    public void summaryPublished() {
        summaries.increment();
    }

    @Override
    public long started() {
        return System.nanoTime();
    }

    @Override
    public void command(String command, CommandResult.Outcome outcome, long started) {
        long took = System.nanoTime() - started;
        int c = COMMANDS.indexOf(command);
        if (c >= 0) {
            commands[c][outcome.ordinal()].increment();
        }
        if (c == 0) {
            apply.record(took, TimeUnit.NANOSECONDS);
        }
    }
}
