package dev.cartograph.cli;

import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.interpreter.view.WorkloadView;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The table form of a workload view: a tree of components and instances, then phase and totals. Pure. */
final class ViewTable {
    private ViewTable() {}

    static String of(WorkloadView view, List<Problem> problems) {
        StringBuilder out = new StringBuilder();
        out.append(view.identity().describe())
                .append("  (")
                .append(view.identity().apiVersion())
                .append(")\n");
        out.append("Definition: ")
                .append(view.definition())
                .append(" (")
                .append(view.origin())
                .append(")\n\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"COMPONENT", "INSTANCE", "DESIRED", "MIN", "MAX", "GPU/POD", "CPU/POD", "MEM/POD"});
        addRows(view.root(), "", true, true, rows);
        out.append(Columns.render(rows));
        out.append("\nPhase:   ").append(view.phase().displayName());
        if (view.status().phases().size() > 1 || view.phase() == Phase.UNDEFINED) {
            out.append("  (matched: ")
                    .append(view.status().phases().stream()
                            .map(Phase::displayName)
                            .collect(Collectors.joining(", ")))
                    .append(")");
        }
        ResourceList total = view.totals().resources();
        out.append("\nTotals:  ")
                .append(view.totals().pods())
                .append(" pods, ")
                .append(total.gpus())
                .append(" GPUs, ")
                .append(Format.cpu(total.cpuMillis()))
                .append(" CPU, ")
                .append(Format.bytes(total.memoryBytes()))
                .append(" memory");
        out.append("\nGang:    ")
                .append(
                        view.gang().minMember() == 0
                                ? "none (pods are independent)"
                                : "minMember " + view.gang().minMember()
                                        + view.gang().groups().stream()
                                                .map(g -> g.count() + "×" + g.name() + "(" + g.minMember() + ")")
                                                .collect(Collectors.joining(", ", " = ", "")))
                .append('\n');
        for (Problem p : problems) {
            out.append(p).append('\n');
        }
        view.status().errors().forEach(e -> out.append("status: ").append(e).append('\n'));
        return out.toString();
    }

    private static void addRows(ComponentView c, String prefix, boolean last, boolean root, List<String[]> rows) {
        String label = root ? c.name() : prefix + (last ? "└─ " : "├─ ") + c.name();
        String childPrefix = root ? "" : prefix + (last ? "   " : "│  ");
        if (c.instances().isEmpty()) {
            rows.add(new String[] {label, "-", "0", "-", "-", "-", "-", "-"});
        }
        boolean first = true;
        for (InstanceView i : c.instances()) {
            String name = first ? label : childPrefix + (c.children().isEmpty() ? "   " : "│  ");
            first = false;
            boolean pods = i.hasPods();
            rows.add(new String[] {
                name,
                i.id(),
                String.valueOf(i.replicas().desired()),
                String.valueOf(i.replicas().min()),
                i.replicas().max().map(String::valueOf).orElse("-"),
                pods ? String.valueOf(i.perPod().gpus()) : "-",
                pods ? Format.cpu(i.perPod().cpuMillis()) : "-",
                pods ? Format.bytes(i.perPod().memoryBytes()) : "-"
            });
        }
        for (int k = 0; k < c.children().size(); k++) {
            addRows(c.children().get(k), childPrefix, k == c.children().size() - 1, false, rows);
        }
    }
}
