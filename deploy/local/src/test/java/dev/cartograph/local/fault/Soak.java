package dev.cartograph.local.fault;

import dev.cartograph.local.fault.history.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The totals of many runs of the fault suite (a soak, {@code -Dfault.seeds=N}), as docs/reliability.md reports them:
 * runs, gangs, faults by kind, violations per invariant, and the seeds that broke one. Not thread-safe; one per soak.
 */
final class Soak {
    private final long first;
    private final List<FaultSuiteIT.Figures> runs = new ArrayList<>();

    Soak(long first) {
        this.first = first;
    }

    void add(FaultSuiteIT.Figures f) {
        runs.add(f);
    }

    List<FaultSuiteIT.Figures> runs() {
        return List.copyOf(runs);
    }

    void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, toString());
    }

    @Override
    public String toString() {
        Map<Plan.Target, Integer> faults = new TreeMap<>();
        Map<String, Integer> violations = new TreeMap<>();
        for (String invariant : List.of("I1", "I2", "I3", "I4", "I5", "I6")) {
            violations.put(invariant, 0);
        }
        List<String> broken = new ArrayList<>();
        long gangs = 0;
        for (FaultSuiteIT.Figures f : runs) {
            gangs += f.submitted().size();
            f.killsByKind().forEach((k, n) -> faults.merge(k, n, Integer::sum));
            for (Violation v : f.violations()) {
                violations.merge(v.invariant(), 1, Integer::sum);
            }
            if (!f.verdict().holds()) {
                violations.merge("I6", 1, Integer::sum);
            }
            if (!f.violations().isEmpty() || !f.verdict().holds()) {
                broken.add(Long.toString(f.seed()));
            }
        }
        return String.format(
                "fault suite soak from seed %d: %d runs, %d gangs; faults %s; violations %s; seeds that broke one: %s%n",
                first, runs.size(), gangs, faults, violations, broken.isEmpty() ? "none" : String.join(" ", broken));
    }
}
